/** The gateway's authentication: the cache of verified headers, its invalidation stream, and the challenges. */
import { EventEmitter } from 'node:events';
import { AppError, createLogger, unauthorized, type Principal__Output } from '@cms/shared';
import { authenticate } from '../src/auth';
import { AuthCache, tokenHints } from '../src/auth-cache';
import type { Backends } from '../src/backends';
import { watchInvalidations, type InvalidationStream } from '../src/invalidations';

const JANE: Principal__Output = { id: 'jane', roles: ['Member'], groups: [], fullname: 'Jane' };
const BOB: Principal__Output = { id: 'bob', roles: ['Editor'], groups: [], fullname: 'Bob' };

function jwt(payload: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.signature`;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('AuthCache', () => {
  let now: number;
  let cache: AuthCache;
  beforeEach(() => {
    now = 1_000_000;
    cache = new AuthCache(10_000, 3, () => now);
    cache.setConnected(true);
  });

  it('keys entries by a keyed hash of the header, never the header, different per process', () => {
    const header = 'Basic ' + Buffer.from('jane:secret').toString('base64');
    const key = cache.keyOf(header);
    expect(key).not.toContain(header);
    expect(key).not.toContain('secret');
    expect(key).toBe(cache.keyOf(header));
    expect(new AuthCache(10_000).keyOf(header)).not.toBe(key);
  });

  it('remembers a principal for the TTL', () => {
    const key = cache.keyOf('Basic x');
    cache.set(key, cache.ticket(), JANE);
    expect(cache.get(key)).toBe(JANE);
    now += 9_999;
    expect(cache.get(key)).toBe(JANE);
    now += 1;
    expect(cache.get(key)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never past the expiry of the token', () => {
    const key = cache.keyOf('Bearer t');
    cache.set(key, cache.ticket(), JANE, { jti: 'a', exp: now / 1000 + 2 });
    now += 1_999;
    expect(cache.get(key)).toBe(JANE);
    now += 1;
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, cache.ticket(), JANE, { jti: 'a', exp: now / 1000 - 1 });
    expect(cache.size).toBe(0);
  });

  it('is not used while disconnected or with a TTL of 0, and forgets everything on a disconnect', () => {
    const key = cache.keyOf('Basic x');
    cache.set(key, cache.ticket(), JANE);
    cache.setConnected(false);
    expect(cache.active).toBe(false);
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, cache.ticket(), JANE);
    cache.setConnected(true);
    expect(cache.get(key)).toBeUndefined();
    const disabled = new AuthCache(0);
    disabled.setConnected(true);
    expect(disabled.active).toBe(false);
  });

  it('drops entries by token id, by user id, or all', () => {
    const a = cache.keyOf('Bearer a');
    const b = cache.keyOf('Bearer b');
    const basic = cache.keyOf('Basic jane');
    cache.set(a, cache.ticket(), JANE, { jti: 'ja' });
    cache.set(b, cache.ticket(), BOB, { jti: 'jb' });
    cache.set(basic, cache.ticket(), JANE);
    cache.invalidate({ target: 'token_id', token_id: 'ja' });
    expect([cache.get(a), cache.get(b), cache.get(basic)]).toEqual([undefined, BOB, JANE]);
    cache.invalidate({ target: 'user_id', user_id: 'jane' });
    expect([cache.get(b), cache.get(basic)]).toEqual([BOB, undefined]);
    cache.invalidate({ target: 'all', all: true });
    expect(cache.size).toBe(0);
  });

  it('keeps no answer that an invalidation overtook', () => {
    const key = cache.keyOf('Bearer a');
    const ticket = cache.ticket();
    cache.invalidate({ target: 'token_id', token_id: 'other' });
    cache.set(key, ticket, JANE, { jti: 'a' });
    expect(cache.get(key)).toBeUndefined();
  });

  it('is bounded: the oldest entry goes first', () => {
    const keys = ['1', '2', '3', '4'].map((h) => cache.keyOf(h));
    for (const key of keys) cache.set(key, cache.ticket(), JANE);
    expect(cache.size).toBe(3);
    expect(cache.get(keys[0])).toBeUndefined();
    expect(cache.get(keys[3])).toBe(JANE);
  });

  it('reads jti and exp from a token without trusting anything else', () => {
    expect(tokenHints(jwt({ sub: 'jane', jti: 'abc', exp: 123 }))).toEqual({ jti: 'abc', exp: 123 });
    expect(tokenHints(jwt({ jti: 5 }))).toEqual({ jti: undefined, exp: undefined });
    expect(tokenHints('garbage')).toEqual({});
    expect(tokenHints('a.%%%.c')).toEqual({});
  });
});

class FakeStream extends EventEmitter implements InvalidationStream {
  cancelled = false;
  cancel(): void {
    this.cancelled = true;
  }
}

describe('watchInvalidations', () => {
  const logger = createLogger('gateway', 'silent');
  // The backoff runs on a fake clock: each wait is checked against its bounds, not timed.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Fails `stream` and checks the reconnection comes after `backoffMs` less its jitter (at most a quarter), not sooner. */
  function expectReconnectAfter(streams: FakeStream[], stream: FakeStream, backoffMs: number) {
    const count = streams.length;
    stream.emit('error', new Error('UNAVAILABLE'));
    stream.emit('status', { code: 14 });
    jest.advanceTimersByTime(Math.ceil(backoffMs * 0.75) - 1);
    expect(streams).toHaveLength(count);
    jest.advanceTimersByTime(backoffMs - Math.ceil(backoffMs * 0.75) + 1);
    expect(streams).toHaveLength(count + 1);
  }

  it('uses the cache only while the stream is open, and reconnects with backoff', () => {
    const cache = new AuthCache(10_000);
    const streams: FakeStream[] = [];
    const watcher = watchInvalidations(
      () => {
        const s = new FakeStream();
        streams.push(s);
        return s;
      },
      cache,
      logger,
      { minBackoffMs: 20, maxBackoffMs: 80 },
    );
    expect(streams).toHaveLength(1);
    expect(cache.active).toBe(false);
    streams[0].emit('metadata');
    expect(cache.active).toBe(true);

    const key = cache.keyOf('Bearer a');
    cache.set(key, cache.ticket(), JANE, { jti: 'ja' });
    streams[0].emit('data', { target: 'token_id', token_id: 'ja' });
    expect(cache.get(key)).toBeUndefined();

    cache.set(key, cache.ticket(), JANE, { jti: 'ja' });
    // Failing again and again: the waits double up to the cap.
    expectReconnectAfter(streams, streams[0], 20);
    expect(cache.active).toBe(false);
    expect(cache.size).toBe(0);
    expectReconnectAfter(streams, streams[1], 40);
    expectReconnectAfter(streams, streams[2], 80);
    expectReconnectAfter(streams, streams[3], 80);
    // Open again: the cache is in use, and the next wait starts from the minimum.
    streams[4].emit('metadata');
    expect(cache.active).toBe(true);
    expectReconnectAfter(streams, streams[4], 20);
    streams[5].emit('metadata');
    expect(cache.active).toBe(true);
    // A late event of an old stream changes nothing.
    cache.set(key, cache.ticket(), JANE, { jti: 'ja' });
    streams[0].emit('data', { target: 'all', all: true });
    streams[1].emit('metadata');
    expect(cache.get(key)).toBe(JANE);
    watcher.stop();
    expect(streams[5].cancelled).toBe(true);
    expect(cache.active).toBe(false);
    jest.advanceTimersByTime(10_000);
    expect(streams).toHaveLength(6);
  });
});

describe('authenticate', () => {
  let calls: unknown[];
  let answer: (credentials: unknown) => Promise<Principal__Output>;
  const backends = {
    authenticate: (credentials: unknown) => {
      calls.push(credentials);
      return answer(credentials);
    },
  } as unknown as Backends;

  beforeEach(() => {
    calls = [];
    answer = async () => JANE;
  });

  it('is anonymous without a header', async () => {
    expect(await authenticate(undefined, backends, 'r')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('asks identity once per header while the cache is open', async () => {
    const cache = new AuthCache(10_000);
    cache.setConnected(true);
    const header = 'Basic ' + Buffer.from('jane:secret').toString('base64');
    expect(await authenticate(header, backends, 'r', cache)).toBe(JANE);
    expect(await authenticate(header, backends, 'r', cache)).toBe(JANE);
    expect(calls).toEqual([{ basic: { login: 'jane', password: 'secret' } }]);
    const token = jwt({ sub: 'jane', jti: 'j1', exp: Math.floor(Date.now() / 1000) + 60 });
    await authenticate(`Bearer ${token}`, backends, 'r', cache);
    await authenticate(`Bearer ${token}`, backends, 'r', cache);
    expect(calls).toHaveLength(2);
    cache.invalidate({ target: 'token_id', token_id: 'j1' });
    await authenticate(`Bearer ${token}`, backends, 'r', cache);
    expect(calls).toHaveLength(3);
  });

  it('asks identity every time when the cache is not open', async () => {
    const cache = new AuthCache(10_000);
    await authenticate('Bearer x', backends, 'r', cache);
    await authenticate('Bearer x', backends, 'r', cache);
    expect(calls).toHaveLength(2);
  });

  it('never caches a refusal, and challenges by scheme', async () => {
    const cache = new AuthCache(10_000);
    cache.setConnected(true);
    answer = async () => {
      throw unauthorized('Invalid or expired token');
    };
    const bearer = await refusal(authenticate('Bearer forged', backends, 'r', cache));
    expect(bearer.httpStatus).toBe(401);
    expect(bearer.headers?.['WWW-Authenticate']).toMatch(/^Bearer realm="CMS", error="invalid_token"/);
    const basic = await refusal(authenticate('Basic ' + Buffer.from('a:b').toString('base64'), backends, 'r', cache));
    expect(basic.headers?.['WWW-Authenticate']).toMatch(/^Basic /);
    await refusal(authenticate('Bearer forged', backends, 'r', cache));
    expect(calls).toHaveLength(3);
    expect(cache.size).toBe(0);
    const scheme = await refusal(authenticate('Digest abc', backends, 'r', cache));
    expect(scheme.httpStatus).toBe(401);
  });

  it('passes a 429 with its Retry-After through', async () => {
    answer = async () => {
      throw new AppError('TooManyRequests', 'locked', undefined, undefined, { 'Retry-After': '30' });
    };
    const error = await refusal(authenticate('Basic ' + Buffer.from('a:b').toString('base64'), backends, 'r'));
    expect(error.httpStatus).toBe(429);
    expect(error.headers).toEqual({ 'Retry-After': '30' });
  });
});
