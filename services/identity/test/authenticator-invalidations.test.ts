/** The InvalidationHub and the WatchInvalidations stream it feeds, over real gRPC. */
import {
  createClient,
  createLogger,
  protos,
  requestMetadata,
  startGrpcServer,
  type IdentityServiceClient,
  type RunningGrpcServer,
} from '@cms/shared';
import { watchInvalidations } from '../src/api/grpc';
import { InvalidationHub, type Invalidation, type InvalidationSink } from '../src/domain/invalidations';

const MAX = 4 * 1024 * 1024;

function waitFor(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (predicate()) return resolve();
      if (Date.now() > deadline) return reject(new Error('condition not met in time'));
      setTimeout(tick, 5);
    };
    tick();
  });
}

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
    const order: string[] = [];
    const slow = sink(
      (i) => new Promise<void>((resolve) => setTimeout(() => (order.push(`slow ${JSON.stringify(i)}`), resolve()), 30)),
    );
    const fast = sink(async (i) => void order.push(`fast ${JSON.stringify(i)}`));
    hub.attach(slow.sink);
    hub.attach(fast.sink);
    expect(hub.watchers).toBe(2);
    await hub.tokenRevoked('t1');
    order.push('published');
    expect(order).toEqual(['fast {"token_id":"t1"}', 'slow {"token_id":"t1"}', 'published']);
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

  beforeEach(async () => {
    hub = new InvalidationHub(logger);
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        {
          name: 'cms.identity.v1.IdentityService',
          definition: protos().identity.IdentityService.service,
          implementation: { WatchInvalidations: watchInvalidations(hub) },
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
    await waitFor(() => headers && hub.watchers === 1);
    await hub.tokenRevoked('jti-1');
    await hub.userChanged('jane');
    await hub.allChanged();
    await waitFor(() => received.length === 3);
    expect(received).toEqual([
      expect.objectContaining({ target: 'token_id', token_id: 'jti-1' }),
      expect.objectContaining({ target: 'user_id', user_id: 'jane' }),
      expect.objectContaining({ target: 'all', all: true }),
    ]);
    stream.cancel();
    await waitFor(() => hub.watchers === 0);
  });

  it('reaches every open stream before the publication resolves', async () => {
    const streams = [0, 1, 2].map(() => client.WatchInvalidations({}, requestMetadata('test')));
    const received = streams.map(() => [] as unknown[]);
    streams.forEach((s, i) => {
      s.on('data', (m) => received[i].push(m));
      s.on('error', () => undefined);
    });
    await waitFor(() => hub.watchers === 3);
    await hub.tokenRevoked('jti-2');
    await waitFor(() => received.every((r) => r.length === 1), 1000);
    for (const s of streams) s.cancel();
  });

  it('ends the streams when the hub closes, so the server can stop', async () => {
    const stream = client.WatchInvalidations({}, requestMetadata('test'));
    let status: number | undefined;
    stream.on('status', (s) => (status = s.code));
    stream.on('data', () => undefined);
    stream.on('error', () => undefined);
    await waitFor(() => hub.watchers === 1);
    hub.close();
    await waitFor(() => status !== undefined);
    expect(status).toBe(0);
  });
});
