import { EventEmitter } from 'node:events';
import { ReconnectingStream } from '../../src/grpc/reconnecting-stream';

class FakeStream extends EventEmitter {
  cancelled = false;
  cancel(): void {
    this.cancelled = true;
  }
}

function harness(options: { min?: number; max?: number } = {}) {
  const opened: FakeStream[] = [];
  const lost: [string, boolean][] = [];
  const streams = new ReconnectingStream<FakeStream>({
    open: () => {
      const stream = new FakeStream();
      opened.push(stream);
      return stream;
    },
    attach: () => undefined,
    onLost: (reason, stopping) => void lost.push([reason, stopping]),
    minBackoffMs: options.min ?? 100,
    maxBackoffMs: options.max ?? 400,
    // Every wait drawn at its longest.
    random: () => 1,
  });
  return { streams, opened, lost };
}

describe('ReconnectingStream', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('opens another stream after a backoff that doubles up to its longest, and is short again once live', () => {
    const { streams, opened, lost } = harness();
    streams.start();
    expect(opened).toHaveLength(1);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      opened.at(-1)!.emit('error', new Error(`cut ${i}`));
      const before = opened.length;
      let waited = 0;
      while (opened.length === before) {
        jest.advanceTimersByTime(10);
        waited += 10;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([100, 200, 400, 400]);
    expect(lost.map(([reason]) => reason)).toEqual(['cut 0', 'cut 1', 'cut 2', 'cut 3']);
    streams.live();
    opened.at(-1)!.emit('end');
    jest.advanceTimersByTime(100);
    expect(opened).toHaveLength(6);
    streams.stop();
  });

  it('tells a loss once per stream, and takes no word from a stream it has left', () => {
    const { streams, opened, lost } = harness();
    streams.start();
    const first = opened[0];
    first.emit('end');
    first.emit('status');
    first.emit('error', new Error('late'));
    expect(lost).toEqual([['stream ended', false]]);
    expect(streams.isCurrent(first)).toBe(false);
    jest.advanceTimersByTime(100);
    expect(streams.isCurrent(opened[1])).toBe(true);
    streams.stop();
  });

  it('fail() gives a stream up, cancels it and schedules the next', () => {
    const { streams, opened, lost } = harness();
    streams.start();
    streams.fail(opened[0], 'no heartbeat');
    expect(opened[0].cancelled).toBe(true);
    expect(lost).toEqual([['no heartbeat', false]]);
    jest.advanceTimersByTime(100);
    expect(opened).toHaveLength(2);
    streams.stop();
  });

  it('stop() cancels the open stream, tells it as stopping, and opens none after', () => {
    const { streams, opened, lost } = harness();
    streams.start();
    streams.stop();
    expect(opened[0].cancelled).toBe(true);
    expect(lost).toEqual([['stopped', true]]);
    opened[0].emit('error', new Error('cancelled'));
    jest.advanceTimersByTime(10_000);
    expect(opened).toHaveLength(1);
    expect(lost).toHaveLength(1);
  });

  it('stop() during a backoff opens none after', () => {
    const { streams, opened } = harness();
    streams.start();
    opened[0].emit('end');
    streams.stop();
    jest.advanceTimersByTime(10_000);
    expect(opened).toHaveLength(1);
  });
});
