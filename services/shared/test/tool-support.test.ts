import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressMessages, type ProgressStep } from '../src/grpc/progress-stream';
import { toolTarget } from '../src/runtime/embedded-addresses';
import { followProgress, progress } from '../src/runtime/tool-support';

function lineStream() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe('progress off a terminal', () => {
  it('writes a line at most every 2 s, and always the last', () => {
    const { stream, lines } = lineStream();
    let clock = 0;
    const bar = progress('import', 4, stream, () => clock);
    bar.tick('/a');
    clock = 1000;
    bar.tick('/b');
    clock = 2500;
    bar.tick('/c');
    clock = 2600;
    bar.tick('/d');
    bar.stop();
    expect(lines).toEqual(['import: 1/4 /a\n', 'import: 3/4 /c\n', 'import: 4/4 /d\n']);
  });

  it('raises the total when more is done than was counted', () => {
    const { stream, lines } = lineStream();
    const bar = progress('reindex', 2, stream, () => 0);
    bar.update(1, '/a');
    bar.update(3, '/c');
    bar.stop();
    expect(lines).toEqual(['reindex: 1/2 /a\n', 'reindex: 3/3 /c\n']);
  });

  it('says where it stopped when stopped short', () => {
    const { stream, lines } = lineStream();
    const bar = progress('export', 3, stream, () => 0);
    bar.tick('/a');
    bar.stop();
    expect(lines).toEqual(['export: 1/3 /a\n', 'export: 1/3 (stopped)\n']);
  });
});

describe('a service’s progress, streamed to a tool', () => {
  async function* job(log: string[]): AsyncGenerator<ProgressStep, { indexed: number }> {
    try {
      for (let done = 1; done <= 4; done++) yield { done, total: 4, what: `/o${done}` };
      return { indexed: 4 };
    } finally {
      log.push('job closed');
    }
  }

  it('sends a message at most every 250 ms, then the last step with the result; the tool shows them', async () => {
    let clock = 0;
    const sent: unknown[] = [];
    const messages = (async function* () {
      for await (const message of progressMessages(job([]), () => (clock += 100))) {
        sent.push(message);
        yield message;
      }
    })();
    const { stream, lines } = lineStream();
    expect(await followProgress('reindex', messages, 'r1', stream)).toEqual({ indexed: 4 });
    expect(sent).toEqual([
      { done: 1, total: 4, what: '/o1' },
      { done: 4, total: 4, what: '/o4' },
      { done: 4, total: 4, what: '/o4', result: { indexed: 4 } },
    ]);
    expect(lines).toEqual(['reindex: 1/4 /o1\n', 'reindex: 4/4 /o4\n']);
  });

  it('stops the job when the call goes away (a cancelled call returns the stream)', async () => {
    const log: string[] = [];
    const messages = progressMessages(job(log), () => 0);
    expect((await messages.next()).value).toEqual({ done: 1, total: 4, what: '/o1' });
    await messages.return(undefined);
    expect(log).toEqual(['job closed']);
  });

  it('fails when the stream ends without a result', async () => {
    const { stream, lines } = lineStream();
    const cut = (async function* () {
      yield { done: 1, total: 3, what: '/a' };
    })();
    await expect(followProgress('reindex', cut, 'r2', stream)).rejects.toThrow(/ended the call without a result/);
    expect(lines).toEqual(['reindex: 1/3 /a\n', 'reindex: 1/3 (stopped)\n']);
  });
});

describe('toolTarget', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tool-support-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prefers the variable, then the embedded mode’s file (with its key), then the default', () => {
    const variable = { variable: 'CONTENT_ADDRESS' };
    expect(toolTarget('content', { ...variable, address: '10.0.0.1:7' }, dataDir, '127.0.0.1:50051')).toEqual({
      address: '10.0.0.1:7',
      from: 'CONTENT_ADDRESS',
    });
    expect(toolTarget('content', variable, dataDir, '127.0.0.1:50051')).toEqual({
      address: '127.0.0.1:50051',
      from: 'the default; set CONTENT_ADDRESS',
    });
    writeFileSync(
      join(dataDir, 'embedded-addresses.json'),
      JSON.stringify({ content: '127.0.0.1:4000', serviceKey: 'k'.repeat(40) }),
    );
    expect(toolTarget('content', variable, dataDir, '127.0.0.1:50051')).toMatchObject({
      address: '127.0.0.1:4000',
      serviceKey: 'k'.repeat(40),
    });
    expect(() => toolTarget('identity', { variable: 'IDENTITY_ADDRESS' }, dataDir, '127.0.0.1:50052')).toThrow(
      /embedded-addresses.json names no identity address$/,
    );
  });
});
