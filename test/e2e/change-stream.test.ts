/**
 * Content's change feed and the gateway's cache subscription over a real `WatchChanges` gRPC stream (issue 18):
 * a write is answered once the gateway has dropped what it touched, and a gateway that stops acking is cut off,
 * stops serving from its cache, and starts over on a new stream.
 */
import { createLogger, protos, startGrpcServer, type RunningGrpcServer } from '@cms/shared';
import { connectBackends, type Backends } from '../../gateway/src/backends';
import { ChangeSubscription, type ChangeStream } from '../../gateway/src/change-subscription';
import { ResponseCache, type CachedAnswer } from '../../gateway/src/http-cache';
import { ChangeFeed, changeFeedRpcs } from '../../services/content/src/events/change-feed';
import { pollUntil } from '../support/poll';

const logger = createLogger('change-stream-test', 'silent');
const answer: CachedAnswer = { status: 200, headers: {}, body: Buffer.from('{}'), etag: '"x"', tags: [] };

describe('the change stream between content and a gateway', () => {
  let feed: ChangeFeed;
  let server: RunningGrpcServer;
  let backends: Backends;
  let cache: ResponseCache;
  let subscription: ChangeSubscription;
  let opened: number;
  /** The stream (by number, from 1) on which the gateway neither applies nor acks pushes; heartbeats still pass. */
  let stalled: number;

  beforeEach(async () => {
    feed = new ChangeFeed({ leaseMs: 400, ackTimeoutMs: 200 });
    const definition = protos().content.ContentService.service;
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [{ name: 'cms.content.v1.ContentService', definition, implementation: changeFeedRpcs(feed) }],
      healthCheck: async () => undefined,
      maxMessageBytes: 4 * 1024 * 1024,
      logger,
    });
    const unused = '127.0.0.1:1';
    backends = connectBackends(
      { content: server.address, identity: unused, search: unused, discussion: unused, config: unused },
      { CALL_TIMEOUT_MS: 5000, MAX_MESSAGE_BYTES: 4 * 1024 * 1024 },
    );
    cache = new ResponseCache(1024 * 1024);
    opened = 0;
    stalled = 0;
    subscription = new ChangeSubscription(
      cache,
      () => {
        opened += 1;
        const stream = backends.watchChanges('change-stream-test');
        const number = opened;
        const on = stream.on.bind(stream) as (event: string, listener: (...args: unknown[]) => void) => unknown;
        const stalling = (event: string, listener: (...args: unknown[]) => void) =>
          on(event, (...args) => {
            // Stalled, it hears nothing but heartbeats, not even that content cut the stream off.
            if (stalled === number && !(event === 'data' && (args[0] as { heartbeat: boolean }).heartbeat)) return;
            listener(...args);
          });
        return Object.assign(stream, { on: stalling }) as ChangeStream;
      },
      logger,
      { minBackoffMs: 20, maxBackoffMs: 100 },
    );
    subscription.start();
    await pollUntil(() => subscription.serving(), 10_000, { description: 'the gateway serving from its cache' });
  });
  afterEach(async () => {
    subscription.stop();
    feed.close();
    await server.stop(1000);
    backends.close();
  });

  it('answers a write once the gateway has dropped what it touched, with no new call for a hit', async () => {
    expect(feed.subscribed).toBe(1);
    cache.set('doc', '/f/doc', 'object', answer);
    cache.set('other', '/g/other', 'object', answer);
    await feed.record(['/f/doc']);
    expect(cache.get('doc')).toBeUndefined();
    expect(cache.get('other')).toBeDefined();
    expect(subscription.serving()).toBe(true);
    expect(opened).toBe(1);
  });

  it('cuts off a gateway that stops acking: it serves nothing stale once the write answers, then starts over', async () => {
    cache.set('doc', '/f/doc', 'object', answer);
    stalled = 1;
    await feed.record(['/f/doc']);
    // The write waited for the lease of the gateway cut off: it no longer serves what it kept.
    expect(subscription.serving() && cache.get('doc') !== undefined).toBe(false);
    await pollUntil(() => opened >= 2 && subscription.serving(), 10_000, {
      description: 'the gateway serving again on a new stream',
    });
    expect(cache.get('doc')).toBeUndefined();
    expect(feed.subscribed).toBe(1);
    cache.set('doc', '/f/doc', 'object', answer);
    await feed.record(['/f/doc']);
    expect(cache.get('doc')).toBeUndefined();
  });
});
