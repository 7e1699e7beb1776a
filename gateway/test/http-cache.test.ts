import { cacheControlOf, cacheRulesOf, DEFAULT_CACHE_RULES } from '../src/cache-rules';
import { etagOf, lastModifiedOf, notModified, tagsOf, topLevelString } from '../src/conditional';
import { ChangeValidator, ResponseCache, touchedBy, type CachedAnswer, type ChangesCall } from '../src/http-cache';

const answer = (body: string): CachedAnswer => ({
  status: 200,
  headers: {},
  body: Buffer.from(body),
  etag: '"x"',
  tags: [],
});

/** A change feed the test drives: each call waits until the test answers it. */
function manualFeed() {
  const calls: { since: string; resolve: (answer: Awaited<ReturnType<ChangesCall>>) => void }[] = [];
  const changes: ChangesCall = (_epoch, since) => new Promise((resolve) => calls.push({ since, resolve }));
  return { calls, changes };
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

  it('drops on a write at a path the object, what is below it, its parent and siblings, and every tree answer', () => {
    const cache = new ResponseCache(1024 * 1024);
    for (const path of ['/', '/f', '/f/a', '/f/a/x', '/f/b', '/g', '/g/c'])
      cache.set(path, path, 'object', answer(path));
    cache.set('nav', '/g/c', 'tree', answer('nav'));
    cache.invalidate(['/f/a']);
    for (const gone of ['/f', '/f/a', '/f/a/x', '/f/b', 'nav']) expect(cache.get(gone)).toBeUndefined();
    for (const kept of ['/', '/g', '/g/c']) expect(cache.get(kept)).toBeDefined();
    cache.invalidate(['/']);
    expect(cache.size).toBe(0);
  });

  it('reads a top-level write as touching the root listing and every top-level sibling', () => {
    const touches = touchedBy('/news');
    expect(['/', '/news', '/news/x', '/events'].map(touches)).toEqual([true, true, true, true]);
    expect(touches('/events/x')).toBe(false);
    expect(touches('/newsletter')).toBe(true); // a sibling, not a descendant
  });
});

describe('the change validator', () => {
  it('makes a reader that arrives during a check wait for the next one, and coalesces those readers', async () => {
    const cache = new ResponseCache(1024 * 1024);
    const feed = manualFeed();
    const validator = new ChangeValidator(cache, feed.changes);
    const first = validator.validate();
    expect(feed.calls).toHaveLength(1);
    const second = validator.validate();
    const third = validator.validate();
    expect(feed.calls).toHaveLength(1);
    feed.calls[0].resolve({ epoch: 'e', seq: '1', paths: [], reset: true });
    await expect(first).resolves.toBe(true);
    // The readers that arrived while the first check was out share one check made after it.
    await Promise.resolve();
    expect(feed.calls).toHaveLength(2);
    expect(feed.calls[1].since).toBe('1');
    cache.set('doc', '/doc', 'object', answer('old'));
    feed.calls[1].resolve({ epoch: 'e', seq: '2', paths: ['/doc'], reset: false });
    await expect(second).resolves.toBe(true);
    await expect(third).resolves.toBe(true);
    expect(cache.get('doc')).toBeUndefined();
    expect(feed.calls).toHaveLength(2);
  });

  it('keeps a fetched answer only when no change was applied while it was on its way', async () => {
    const cache = new ResponseCache(1024 * 1024);
    const feed = manualFeed();
    const validator = new ChangeValidator(cache, feed.changes);
    const ready = validator.validate();
    feed.calls[0].resolve({ epoch: 'e', seq: '5', paths: [], reset: true });
    await ready;
    const ticket = validator.ticket();
    expect(validator.current(ticket)).toBe(true);
    const next = validator.validate();
    feed.calls[1].resolve({ epoch: 'e', seq: '6', paths: ['/elsewhere'], reset: false });
    await next;
    expect(validator.current(ticket)).toBe(false);
  });

  it('empties the cache and refuses it when the check fails or the feed restarted', async () => {
    const cache = new ResponseCache(1024 * 1024);
    let fail = false;
    let epoch = 'one';
    const validator = new ChangeValidator(cache, async () => {
      if (fail) throw new Error('unavailable');
      return { epoch, seq: '1', paths: [], reset: false };
    });
    await validator.validate();
    cache.set('doc', '/doc', 'object', answer('x'));
    epoch = 'two';
    await expect(validator.validate()).resolves.toBe(true);
    expect(cache.size).toBe(0);
    cache.set('doc', '/doc', 'object', answer('x'));
    fail = true;
    await expect(validator.validate()).resolves.toBe(false);
    expect(cache.size).toBe(0);
    expect(validator.current(validator.ticket())).toBe(false);
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
