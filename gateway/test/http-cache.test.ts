import { cacheControlOf, cacheRulesOf, DEFAULT_CACHE_RULES } from '../src/cache-rules';
import { etagOf, lastModifiedOf, notModified, tagsOf, topLevelString } from '../src/conditional';
import { EventEmitter } from 'node:events';
import { createLogger, SHOWS_HEADER, showsHeaderOf, shownPathsOf } from '@cms/shared';
import { ChangeSubscription, type ChangePushMessage, type ChangeStream } from '../src/change-subscription';
import { ReplicaSubscriptions } from '../src/replica-subscriptions';
import { ResponseCache, touchedBy, type CachedAnswer } from '../src/http-cache';

const answer = (body: string): CachedAnswer => ({
  status: 200,
  headers: {},
  body: Buffer.from(body),
  etag: '"x"',
  tags: [],
});

const LEASE = 2_000;

/** A `WatchChanges` stream the test drives as content would: pushes in, acks and pings out. */
class FakeStream extends EventEmitter implements ChangeStream {
  readonly written: { seq: string; ping: string }[] = [];
  cancelled = false;
  /** What the cache held for each ack, when it was written (the ack must follow the invalidation). */
  readonly cachedAtAck: number[] = [];
  constructor(private readonly cache: ResponseCache) {
    super();
  }
  write(ack: { seq: string; ping: string }): boolean {
    this.written.push(ack);
    if (ack.seq !== '0') this.cachedAtAck.push(this.cache.size);
    return true;
  }
  cancel(): void {
    this.cancelled = true;
  }
  push(fields: Partial<ChangePushMessage>): void {
    const push = {
      epoch: 'e1',
      seq: '0',
      paths: [],
      reset: false,
      heartbeat: false,
      pong: '0',
      blind: false,
      replicas: [],
    };
    this.emit('data', { ...push, lease_ms: LEASE, ...fields });
  }
  /** Answers the last ping, as content does at once. */
  pong(): void {
    const pings = this.written.filter((ack) => ack.ping !== '0');
    this.push({ heartbeat: true, pong: pings[pings.length - 1].ping });
  }
}

function subscribed(cache: ResponseCache) {
  const streams: FakeStream[] = [];
  const subscription = new ChangeSubscription(
    cache,
    () => {
      const stream = new FakeStream(cache);
      streams.push(stream);
      return stream;
    },
    createLogger('gateway-test', 'silent'),
    { minBackoffMs: 100, maxBackoffMs: 1000, now: () => Date.now() },
  );
  subscription.start();
  return { subscription, streams, stream: () => streams[streams.length - 1] };
}

describe('the gateway response cache', () => {
  it('keeps at most its bytes, dropping the least recently used first', () => {
    const cache = new ResponseCache(8 * 1024);
    cache.set('a', '/a', 'object', answer('a'.repeat(300)));
    cache.set('b', '/b', 'object', answer('b'.repeat(300)));
    expect(cache.get('a')).toBeDefined();
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, `/k${i}`, 'object', answer('k'.repeat(300)));
    expect(cache.usedBytes).toBeLessThanOrEqual(8 * 1024);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('k19')).toBeDefined();
  });

  it('refuses an answer larger than an eighth of its bytes', () => {
    const cache = new ResponseCache(8 * 1024);
    cache.set('big', '/big', 'object', answer('x'.repeat(2000)));
    expect(cache.get('big')).toBeUndefined();
  });

  it('drops on a write at a path the object, what is below it, its parent, siblings showing it, and every tree answer', () => {
    const cache = new ResponseCache(1024 * 1024);
    for (const path of ['/', '/f', '/f/a', '/f/a/x', '/g', '/g/c']) cache.set(path, path, 'object', answer(path));
    cache.set('/f/b', '/f/b', 'object', answer('/f/b'), { neighbours: true });
    cache.set('/f/c', '/f/c', 'object', answer('/f/c'));
    cache.set('nav', '/g/c', 'tree', answer('nav'));
    cache.invalidate(['/f/a']);
    for (const gone of ['/f', '/f/a', '/f/a/x', '/f/b', 'nav']) expect(cache.get(gone)).toBeUndefined();
    // A sibling that does not show its neighbours does not change with /f/a.
    for (const kept of ['/', '/g', '/g/c', '/f/c']) expect(cache.get(kept)).toBeDefined();
    cache.invalidate(['/']);
    expect(cache.size).toBe(0);
  });

  it('drops an answer on a write at or above an object it shows, and not on one beside it', () => {
    const cache = new ResponseCache(1024 * 1024);
    cache.set('source', '/source', 'object', answer('source'), { shows: ['/shelf/target'] });
    cache.invalidate(['/shelf/targets', '/shelf/other', '/shelf/target-2']);
    expect(cache.get('source')).toBeDefined();
    cache.invalidate(['/shelf/target']);
    expect(cache.get('source')).toBeUndefined();
    cache.set('source', '/source', 'object', answer('source'), { shows: ['/shelf/target'] });
    cache.invalidate(['/shelf']);
    expect(cache.get('source')).toBeUndefined();
    // Told the whole site (too many, or unreadable): any write drops it.
    cache.set('wide', '/wide', 'object', answer('wide'), { shows: shownPathsOf('not json') });
    cache.invalidate(['/elsewhere']);
    expect(cache.get('wide')).toBeUndefined();
  });

  it('reads what an answer shows from the header content sets, bounded', () => {
    expect(shownPathsOf(showsHeaderOf(['/a', '/b', '/a'])[SHOWS_HEADER])).toEqual(['/a', '/b']);
    expect(showsHeaderOf([])).toEqual({});
    expect(shownPathsOf(showsHeaderOf(Array.from({ length: 500 }, (_, i) => `/p${i}`))[SHOWS_HEADER])).toEqual(['/']);
    expect(shownPathsOf('["relative"]')).toEqual(['/']);
    expect(shownPathsOf(undefined)).toEqual([]);
  });

  it('reads a top-level write as touching the root listing and every top-level sibling', () => {
    const touches = touchedBy('/news');
    expect(['/', '/news', '/news/x'].map((context) => touches(context))).toEqual([true, true, true]);
    expect(touches('/events', true)).toBe(true);
    expect(touches('/events/x')).toBe(false);
    expect(touches('/newsletter', true)).toBe(true); // a sibling showing its neighbours, not a descendant
    expect(touches('/newsletter')).toBe(false);
  });
});

describe('the change subscription', () => {
  let cache: ResponseCache;
  beforeEach(() => {
    jest.useFakeTimers();
    cache = new ResponseCache(1024 * 1024);
  });
  afterEach(() => jest.useRealTimers());

  it('serves once content started it over and answered a ping, and acks a push only after applying it', () => {
    const { subscription, stream } = subscribed(cache);
    expect(subscription.serving()).toBe(false);
    cache.set('before', '/before', 'object', answer('x'));
    stream().push({ seq: '4', reset: true });
    expect(cache.size).toBe(0);
    expect(stream().written[0]).toEqual({ seq: '4', ping: '0' });
    expect(subscription.serving()).toBe(false);
    stream().pong();
    expect(subscription.serving()).toBe(true);
    cache.set('doc', '/f/doc', 'object', answer('old'));
    cache.set('other', '/g/other', 'object', answer('kept'));
    stream().push({ seq: '5', paths: ['/f/doc'] });
    expect(cache.get('doc')).toBeUndefined();
    expect(cache.get('other')).toBeDefined();
    expect(
      stream()
        .written.filter((ack) => ack.seq !== '0')
        .map((ack) => ack.seq),
    ).toEqual(['4', '5']);
    // The ack left once the entry was gone.
    expect(stream().cachedAtAck).toEqual([0, 1]);
  });

  it('keeps a fetched answer only when no change was applied while it was on its way', () => {
    const { subscription, stream } = subscribed(cache);
    stream().push({ seq: '1', reset: true });
    stream().pong();
    const ticket = subscription.ticket();
    expect(subscription.current(ticket)).toBe(true);
    stream().push({ seq: '2', paths: ['/elsewhere'] });
    expect(subscription.current(ticket)).toBe(false);
    expect(subscription.current(subscription.ticket())).toBe(true);
  });

  it('stops serving when no ping was answered for a lease (less a margin), counted from when the ping left, then reconnects', () => {
    const { subscription, streams, stream } = subscribed(cache);
    stream().push({ seq: '1', reset: true });
    stream().pong(); // the ping sent at 0
    // Content stops answering: pings go out every quarter lease, unanswered.
    jest.advanceTimersByTime((LEASE * 7) / 8 - 1);
    expect(subscription.serving()).toBe(true);
    jest.advanceTimersByTime(1);
    expect(subscription.serving()).toBe(false);
    // The answer to the ping sent at 3/4 of the lease arrives late: the lease runs from when that ping left.
    const pings = stream()
      .written.filter((ack) => ack.ping !== '0')
      .map((ack) => ack.ping);
    expect(pings).toHaveLength(4);
    stream().push({ heartbeat: true, pong: pings[3] });
    expect(subscription.serving()).toBe(true);
    jest.advanceTimersByTime((LEASE * 3) / 4 - 1);
    expect(subscription.serving()).toBe(true);
    jest.advanceTimersByTime(1);
    expect(subscription.serving()).toBe(false);
    // A whole lease without an answer: the stream is given up (content has cut it off) and another one opened.
    expect(streams).toHaveLength(1);
    jest.advanceTimersByTime(LEASE / 4);
    expect(streams[0].cancelled).toBe(true);
    jest.advanceTimersByTime(100);
    expect(streams).toHaveLength(2);
  });

  it('serves nothing while content is blind, and starts over when it sees again', () => {
    const { subscription, stream } = subscribed(cache);
    stream().push({ seq: '1', reset: true });
    stream().pong();
    cache.set('doc', '/doc', 'object', answer('x'));
    stream().push({ seq: '2', blind: true });
    expect(subscription.serving()).toBe(false);
    expect(subscription.current(subscription.ticket())).toBe(false);
    stream().push({ seq: '3', reset: true });
    expect(cache.size).toBe(0);
    expect(subscription.serving()).toBe(true);
  });

  it('empties the cache when the stream is lost and starts over on a new one after a backoff', () => {
    const { subscription, streams, stream } = subscribed(cache);
    stream().push({ seq: '1', reset: true });
    stream().pong();
    const ticket = subscription.ticket();
    cache.set('doc', '/doc', 'object', answer('x'));
    stream().emit('error', new Error('unavailable'));
    expect(cache.size).toBe(0);
    expect(subscription.serving()).toBe(false);
    expect(subscription.current(ticket)).toBe(false);
    // The first backoff, less its jitter (at most a quarter).
    jest.advanceTimersByTime(74);
    expect(streams).toHaveLength(1);
    jest.advanceTimersByTime(26);
    expect(streams).toHaveLength(2);
    // Nothing from the old stream counts any more; the new one is used from its reset and an answered ping on.
    streams[0].push({ seq: '2', reset: true });
    expect(subscription.serving()).toBe(false);
    stream().push({ seq: '7', epoch: 'e2', reset: true });
    stream().pong();
    expect(subscription.serving()).toBe(true);
    subscription.stop();
    expect(stream().cancelled).toBe(true);
    expect(subscription.serving()).toBe(false);
  });
});

describe('the change subscriptions to every content replica', () => {
  let cache: ResponseCache;
  beforeEach(() => {
    jest.useFakeTimers();
    cache = new ResponseCache(1024 * 1024);
  });
  afterEach(() => jest.useRealTimers());

  function replicated() {
    /** Streams opened, by the address they were opened to ('' for the balanced content address). */
    const opened: { address: string; stream: FakeStream }[] = [];
    const subscriptions = new ReplicaSubscriptions(
      cache,
      (address) => {
        const stream = new FakeStream(cache);
        opened.push({ address: address ?? '', stream });
        return stream;
      },
      createLogger('gateway-test', 'silent'),
      { minBackoffMs: 100, maxBackoffMs: 1000, now: () => Date.now() },
    );
    subscriptions.start();
    const to = (address: string) => [...opened].reverse().find((o) => o.address === address)!.stream;
    return { subscriptions, opened, to };
  }
  const A = { epoch: 'ea', address: '10.0.0.1:50051' };
  const B = { epoch: 'eb', address: '10.0.0.2:50051' };

  it('with one content process that names no replicas, serves from its one stream as before', () => {
    const { subscriptions, opened, to } = replicated();
    to('').push({ seq: '1', reset: true, epoch: 'ea' });
    to('').pong();
    expect(subscriptions.serving()).toBe(true);
    expect(opened).toHaveLength(1);
  });

  it('serves only once a stream to every replica reported is serving, and stops when one is lost', () => {
    const { subscriptions, to } = replicated();
    to('').push({ seq: '1', reset: true, epoch: 'ea', replicas: [A, B] });
    to('').pong();
    // Told of two replicas: a stream of its own to each, and nothing served until both are live.
    expect(subscriptions.serving()).toBe(false);
    to(A.address).push({ seq: '1', reset: true, epoch: 'ea', replicas: [A, B] });
    to(A.address).pong();
    expect(subscriptions.serving()).toBe(false);
    to(B.address).push({ seq: '1', reset: true, epoch: 'eb', replicas: [A, B] });
    to(B.address).pong();
    expect(subscriptions.serving()).toBe(true);
    const ticket = subscriptions.ticket();
    cache.set('doc', '/doc', 'object', answer('x'));
    // A write through B reaches the cache through B's own stream, and an answer fetched before it is not kept.
    to(B.address).push({ seq: '2', epoch: 'eb', paths: ['/doc'] });
    expect(cache.get('doc')).toBeUndefined();
    expect(subscriptions.current(ticket)).toBe(false);
    to(B.address).emit('error', new Error('unavailable'));
    expect(subscriptions.serving()).toBe(false);
  });

  it('stops serving when a replica joins, until it has a stream to it, and closes the stream of one gone', () => {
    const { subscriptions, to, opened } = replicated();
    to('').push({ seq: '1', reset: true, epoch: 'ea', replicas: [A] });
    to('').pong();
    to(A.address).push({ seq: '1', reset: true, epoch: 'ea', replicas: [A] });
    to(A.address).pong();
    expect(subscriptions.serving()).toBe(true);
    to(A.address).push({ seq: '2', epoch: 'ea', replicas: [A, B] });
    expect(subscriptions.serving()).toBe(false);
    to(B.address).push({ seq: '1', reset: true, epoch: 'eb', replicas: [A, B] });
    to(B.address).pong();
    // Every replica any live stream reports (the union) has a serving stream of its own.
    expect(subscriptions.serving()).toBe(true);
    to('').push({ seq: '2', epoch: 'ea', replicas: [A, B] });
    expect(subscriptions.serving()).toBe(true);
    // B leaves: every live stream reports A alone, and B's stream is closed.
    const streamToB = to(B.address);
    to(A.address).push({ seq: '3', epoch: 'ea', replicas: [A] });
    to('').push({ seq: '3', epoch: 'ea', replicas: [A] });
    streamToB.emit('error', new Error('gone'));
    to(A.address).push({ seq: '4', epoch: 'ea', replicas: [A] });
    expect(subscriptions.serving()).toBe(true);
    // Not opened again after a backoff: B is no longer followed.
    jest.advanceTimersByTime(5_000);
    expect(opened.filter((o) => o.address === B.address)).toHaveLength(1);
  });
});

describe('conditional requests', () => {
  const etag = etagOf(Buffer.from('{"a":1}'), '', 'application/json');

  it('build an ETag from the bytes, the caller and the varying headers', () => {
    expect(etagOf(Buffer.from('{"a":1}'), '', 'application/json')).toBe(etag);
    expect(etagOf(Buffer.from('{"a":2}'), '', 'application/json')).not.toBe(etag);
    expect(etagOf(Buffer.from('{"a":1}'), 'admin', 'application/json')).not.toBe(etag);
    expect(etagOf(Buffer.from('{"a":1}'), '', 'application/json\nde')).not.toBe(etag);
  });

  it('answer If-None-Match by weak comparison, before If-Modified-Since', () => {
    const modified = new Date('2026-01-02T03:04:05Z').toUTCString();
    expect(notModified({ 'if-none-match': `"other", W/${etag}` }, etag, modified)).toBe(true);
    expect(notModified({ 'if-none-match': '*' }, etag, undefined)).toBe(true);
    expect(notModified({ 'if-none-match': '"other"', 'if-modified-since': modified }, etag, modified)).toBe(false);
    expect(notModified({ 'if-modified-since': modified }, etag, modified)).toBe(true);
    expect(notModified({ 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, etag, modified)).toBe(false);
    expect(notModified({ 'if-modified-since': 'nonsense' }, etag, modified)).toBe(false);
    expect(notModified({}, etag, modified)).toBe(false);
  });

  it('read Last-Modified and the tags from a JSON answer', () => {
    const body = Buffer.from(
      JSON.stringify({
        modified: '2026-01-02T03:04:05+00:00',
        UID: 'a'.repeat(32),
        items: [{ UID: 'b'.repeat(32) }, { UID: 'a'.repeat(32) }],
      }),
    );
    expect(lastModifiedOf(body, 'application/json')).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(lastModifiedOf(Buffer.from('[1]'), 'application/json')).toBeUndefined();
    expect(lastModifiedOf(body, 'image/png')).toBeUndefined();
    expect(tagsOf(body, 'application/json')).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
  });
});

describe('cache rules', () => {
  it('are safe by default: revalidated, private for a logged-in caller', () => {
    expect(cacheControlOf(DEFAULT_CACHE_RULES, 'content', true)).toBe('public, max-age=0, s-maxage=0, must-revalidate');
    expect(cacheControlOf(DEFAULT_CACHE_RULES, 'content', false)).toBe('private, no-cache');
    expect(cacheControlOf(DEFAULT_CACHE_RULES, 'other', true)).toBe('no-cache');
  });

  it('take the registry values per kind, and ignore unusable ones', () => {
    const rules = cacheRulesOf({
      'cms.caching_listing_max_age': 60,
      'cms.caching_listing_s_maxage': 600,
      'cms.caching_must_revalidate': false,
      'cms.caching_files_max_age': -1,
      'cms.caching_tag_header': 'Surrogate-Key',
      'cms.caching_purge_proxies': ['http://varnish:6081', 'ftp://nope', 7],
    });
    expect(cacheControlOf(rules, 'listing', true)).toBe('public, max-age=60, s-maxage=600');
    expect(cacheControlOf(rules, 'file', true)).toBe('public, max-age=0, s-maxage=0');
    expect(rules.tagHeader).toBe('Surrogate-Key');
    expect(rules.purgeProxies).toEqual(['http://varnish:6081']);
    expect(cacheRulesOf({ 'cms.caching_tag_header': 'Bad Header:' }).tagHeader).toBe('Cache-Tag');
  });
});

describe('the top-level member scan', () => {
  it('finds a member of the top-level object only, past nested ones and strings that look alike', () => {
    const body = Buffer.from(
      JSON.stringify({
        parent: { modified: '2000-01-01T00:00:00Z', note: '"modified": "x"' },
        items: [{ modified: '2001-01-01T00:00:00Z' }],
        text: 'a "modified" word, \\" and {braces}',
        modified: '2026-01-02T03:04:05Z',
      }),
    );
    expect(topLevelString(body, Buffer.from('"modified"'))).toBe('2026-01-02T03:04:05Z');
    expect(topLevelString(Buffer.from('{"a":{"modified":"x"}}'), Buffer.from('"modified"'))).toBeUndefined();
    expect(topLevelString(Buffer.from('{"modified":7}'), Buffer.from('"modified"'))).toBeUndefined();
    expect(topLevelString(Buffer.from('{ "modified" : "x\\"y" }'), Buffer.from('"modified"'))).toBe('x"y');
  });
});
