/** The InvalidationHub and the WatchInvalidations stream it feeds, over real gRPC. */
import type { ServerWritableStream } from '@grpc/grpc-js';
import {
  createClient,
  createLogger,
  protos,
  requestMetadata,
  startGrpcServer,
  type IdentityServiceClient,
  type RunningGrpcServer,
} from '@cms/shared';
import { pollUntil } from '../../../test/support/poll';
import { watchInvalidations } from '../src/api/grpc';
import { InvalidationHub, type Invalidation, type InvalidationSink } from '../src/domain/invalidations';

const MAX = 4 * 1024 * 1024;

/** Bounded waits of this file: each names what it waits for. */
const until = (check: () => boolean, description: string) => pollUntil(check, 3000, { intervalMs: 5, description });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets every pending promise callback run (nothing here waits on I/O or timers). */
const settle = () => new Promise((done) => setImmediate(done));

describe('InvalidationHub', () => {
  const sink = (write: InvalidationSink['write']) => {
    const state = { ended: false, aborted: '' };
    const s: InvalidationSink = {
      write,
      end: () => void (state.ended = true),
      abort: (reason) => void (state.aborted = reason),
    };
    return { sink: s, state };
  };

  it('resolves a publication once every stream has taken it', async () => {
    const hub = new InvalidationHub();
    const taken: string[] = [];
    const slowTransport = deferred();
    const slow = sink(async (i) => {
      await slowTransport.promise;
      taken.push(`slow ${JSON.stringify(i)}`);
    });
    const fast = sink(async (i) => void taken.push(`fast ${JSON.stringify(i)}`));
    hub.attach(slow.sink);
    hub.attach(fast.sink);
    expect(hub.watchers).toBe(2);
    let takenWhenResolved: string[] | undefined;
    const publication = hub.tokenRevoked('t1').then(() => (takenWhenResolved = [...taken]));
    await settle();
    // The fast stream has it; the publication still waits for the slow one.
    expect(taken).toEqual(['fast {"token_id":"t1"}']);
    expect(takenWhenResolved).toBeUndefined();
    slowTransport.resolve();
    await publication;
    expect(takenWhenResolved).toEqual(['fast {"token_id":"t1"}', 'slow {"token_id":"t1"}']);
  });

  it('cuts off a stream that does not take a message in time', async () => {
    const hub = new InvalidationHub(undefined, 20);
    const stuck = sink(() => new Promise<void>(() => undefined));
    const failing = sink(() => Promise.reject(new Error('gone')));
    hub.attach(stuck.sink);
    hub.attach(failing.sink);
    await hub.userChanged('jane');
    expect(stuck.state.aborted).toMatch(/not delivered/);
    expect(failing.state.aborted).toMatch(/not delivered/);
    expect(hub.watchers).toBe(0);
  });

  it('tells in-process listeners synchronously and survives a failing one', async () => {
    const hub = new InvalidationHub(createLogger('test', 'silent'));
    const seen: Invalidation[] = [];
    hub.onInvalidation(() => {
      throw new Error('boom');
    });
    const off = hub.onInvalidation((i) => seen.push(i));
    const done = hub.allChanged();
    expect(seen).toEqual([{ all: true }]);
    await done;
    off();
    await hub.userChanged('x');
    expect(seen).toHaveLength(1);
  });

  it('ends every stream on close and takes no new one', () => {
    const hub = new InvalidationHub();
    const open = sink(async () => undefined);
    hub.attach(open.sink);
    hub.close();
    expect(open.state.ended).toBe(true);
    const late = sink(async () => undefined);
    hub.attach(late.sink);
    expect(late.state.ended).toBe(true);
    expect(hub.watchers).toBe(0);
  });
});

describe('WatchInvalidations over gRPC', () => {
  let hub: InvalidationHub;
  let server: RunningGrpcServer;
  let client: IdentityServiceClient;
  const logger = createLogger('identity', 'silent');

  /** Identity's end of one open stream: what its transport has taken, and optionally a gate that holds it back. */
  interface ServerEnd {
    taken: unknown[];
    gate?: Promise<void>;
  }
  let serverEnds: ServerEnd[];

  /** The real handler, with each stream's writes observed: a message counts as taken when its write callback runs. */
  function observed(call: ServerWritableStream<unknown, unknown>): ServerEnd {
    const end: ServerEnd = { taken: [] };
    const write = call.write.bind(call) as (message: unknown, callback: (error?: Error | null) => void) => boolean;
    call.write = ((message: unknown, ...rest: unknown[]) => {
      const callback = rest.find((arg) => typeof arg === 'function') as ((error?: Error | null) => void) | undefined;
      return write(message, (error) => {
        const done = () => {
          end.taken.push(message);
          callback?.(error);
        };
        if (end.gate) void end.gate.then(done);
        else done();
      });
    }) as typeof call.write;
    return end;
  }

  beforeEach(async () => {
    hub = new InvalidationHub(logger);
    serverEnds = [];
    const handler = watchInvalidations(hub);
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.identity.v1.IdentityService',
          definition: protos().identity.IdentityService.service,
          implementation: {
            WatchInvalidations: (call: Parameters<typeof handler>[0]) => {
              serverEnds.push(observed(call as unknown as ServerWritableStream<unknown, unknown>));
              handler(call);
            },
          },
        },
      ],
      healthCheck: async () => {},
      maxMessageBytes: MAX,
      logger,
    });
    client = createClient(protos().identity.IdentityService, server.address, MAX);
  });

  afterEach(async () => {
    hub.close();
    client.close();
    await server.stop(1000);
  });

  it('sends headers at once, then every invalidation, in order', async () => {
    const stream = client.WatchInvalidations({}, requestMetadata('test'));
    const received: unknown[] = [];
    let headers = false;
    stream.on('metadata', () => (headers = true));
    stream.on('data', (message) => received.push(message));
    stream.on('error', () => undefined);
    await until(() => headers && hub.watchers === 1, 'the response headers');
    await hub.tokenRevoked('jti-1');
    await hub.userChanged('jane');
    await hub.allChanged();
    await until(() => received.length === 3, 'three invalidations');
    expect(received).toEqual([
      expect.objectContaining({ target: 'token_id', token_id: 'jti-1' }),
      expect.objectContaining({ target: 'user_id', user_id: 'jane' }),
      expect.objectContaining({ target: 'all', all: true }),
    ]);
    stream.cancel();
    await until(() => hub.watchers === 0, 'the hub to drop the cancelled stream');
  });

  it('reaches every open stream before the publication resolves', async () => {
    const streams = [0, 1, 2].map(() => client.WatchInvalidations({}, requestMetadata('test')));
    const received = streams.map(() => [] as unknown[]);
    streams.forEach((s, i) => {
      s.on('data', (m) => received[i].push(m));
      s.on('error', () => undefined);
    });
    await until(() => hub.watchers === 3 && serverEnds.length === 3, 'three open streams');
    // One stream's transport is slow: it takes the message only once let go.
    const slowTransport = deferred();
    serverEnds[2].gate = slowTransport.promise;

    let takenWhenResolved: unknown[][] | undefined;
    const publication = hub.tokenRevoked('jti-2').then(() => (takenWhenResolved = serverEnds.map((e) => [...e.taken])));
    await until(() => serverEnds[0].taken.length === 1 && serverEnds[1].taken.length === 1, 'the two fast streams');
    await settle();
    expect(takenWhenResolved).toBeUndefined();

    slowTransport.resolve();
    await publication;
    const invalidation = expect.objectContaining({ token_id: 'jti-2' });
    expect(takenWhenResolved).toEqual([[invalidation], [invalidation], [invalidation]]);
    // And each watching end gets it.
    await until(() => received.every((r) => r.length === 1), 'every client to receive the invalidation');
    expect(received).toEqual([[invalidation], [invalidation], [invalidation]]);
    for (const s of streams) s.cancel();
  });

  it('ends the streams when the hub closes, so the server can stop', async () => {
    const stream = client.WatchInvalidations({}, requestMetadata('test'));
    let status: number | undefined;
    stream.on('status', (s) => (status = s.code));
    stream.on('data', () => undefined);
    stream.on('error', () => undefined);
    await until(() => hub.watchers === 1, 'the stream to open');
    hub.close();
    await until(() => status !== undefined, 'the stream to end');
    expect(status).toBe(0);
  });
});
