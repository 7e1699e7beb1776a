/** Throttling of failed logins per client address and per login name, on an embedded store, with a fake clock. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { LoginThrottle, throttleSettingsOf, type ThrottleSettings } from '../src/domain/throttle';
import { identityConfigSchema } from '../src/config';

const SETTINGS: ThrottleSettings = {
  failuresBeforeDelay: 3,
  failuresBeforeLock: 6,
  lockSeconds: 300,
  windowSeconds: 900,
  delayMs: 100,
  maxDelayMs: 250,
  clientFailuresBeforeLock: 8,
};

const ATTACKER = '198.51.100.1';
const ELSEWHERE = '192.0.2.10';

describe('LoginThrottle', () => {
  let dataDir: string;
  let store: DocumentStore;
  let now: number;
  let slept: number[];
  let throttle: LoginThrottle;
  let checks: number;

  const makeThrottle = (settings = SETTINGS) =>
    new LoginThrottle(store, settings, {
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
  const wrong = (t = throttle, login = 'jane', client?: string) =>
    t.attempt(
      login,
      async () => {
        checks++;
        return null;
      },
      client,
    );
  const right = (t = throttle, login = 'jane', client?: string) =>
    t.attempt(
      login,
      async () => {
        checks++;
        return 'ok';
      },
      client,
    );
  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-throttle-'));
    store = await openEmbeddedStore(dataDir);
    now = Date.UTC(2030, 0, 1);
    slept = [];
    checks = 0;
    throttle = makeThrottle();
    await throttle.ensureIndexes();
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads its settings from the configuration, with the documented defaults', () => {
    expect(throttleSettingsOf(identityConfigSchema.parse({}))).toEqual({
      failuresBeforeDelay: 3,
      failuresBeforeLock: 10,
      lockSeconds: 300,
      windowSeconds: 900,
      delayMs: 500,
      maxDelayMs: 5000,
      clientFailuresBeforeLock: 50,
    });
  });

  it('answers the first failures at once, then waits longer per failure, up to the cap', async () => {
    for (let i = 0; i < 6; i++) expect(await wrong()).toBeNull();
    expect(slept).toEqual([100, 200, 250]);
    expect(checks).toBe(6);
  });

  it('locks the name after the limit with 429 and Retry-After, without checking the password', async () => {
    for (let i = 0; i < 6; i++) await wrong();
    const locked = await refusal(right());
    expect(locked.type).toBe('TooManyRequests');
    expect(locked.httpStatus).toBe(429);
    expect(locked.headers).toEqual({ 'Retry-After': '300' });
    expect(checks).toBe(6);
    now += 100_000;
    expect((await refusal(wrong())).headers).toEqual({ 'Retry-After': '200' });
    // Refused attempts do not extend the lock.
    now += 199_500;
    expect((await refusal(right())).headers).toEqual({ 'Retry-After': '1' });
    expect(checks).toBe(6);
    // Refused at once: no delay was asked for after the six failures' own.
    expect(slept).toEqual([100, 200, 250]);
  });

  it('lifts the lock by itself, and the count with it', async () => {
    for (let i = 0; i < 6; i++) await wrong();
    now += 300_001;
    slept = [];
    expect(await wrong()).toBeNull();
    expect(await wrong()).toBeNull();
    expect(slept).toEqual([]);
    expect(await right()).toBe('ok');
  });

  it('resets the count on a success', async () => {
    for (let i = 0; i < 4; i++) await wrong();
    expect(slept).toEqual([100]);
    expect(await right()).toBe('ok');
    slept = [];
    for (let i = 0; i < 3; i++) await wrong();
    expect(slept).toEqual([]);
    for (let i = 0; i < 3; i++) await wrong();
    expect((await refusal(right())).type).toBe('TooManyRequests');
  });

  it('forgets failures after the window without attempts', async () => {
    for (let i = 0; i < 5; i++) await wrong();
    now += 901_000;
    slept = [];
    for (let i = 0; i < 3; i++) await wrong();
    expect(slept).toEqual([]);
  });

  it('counts per login name, known or not', async () => {
    for (let i = 0; i < 6; i++) await wrong(throttle, 'nobody');
    expect((await refusal(right(throttle, 'nobody'))).type).toBe('TooManyRequests');
    expect(await right(throttle, 'jane')).toBe('ok');
  });

  it('lets no more concurrent guesses through than the limit', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => wrong()));
    expect(checks).toBe(6);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(14);
    for (const r of refused) expect((r as PromiseRejectedResult).reason.type).toBe('TooManyRequests');
  });

  it('keeps its count in the store, so replicas agree', async () => {
    const replica = makeThrottle();
    for (let i = 0; i < 3; i++) await wrong(throttle);
    for (let i = 0; i < 3; i++) await wrong(replica);
    expect((await refusal(right(throttle))).type).toBe('TooManyRequests');
    expect((await refusal(right(replica))).type).toBe('TooManyRequests');
  });

  it('purges stale names', async () => {
    await wrong(throttle, 'a');
    now += 901_000 + 60_000;
    await wrong(throttle, 'b');
    expect(await store.collection('login_attempts').countDocuments({})).toBe(1);
    // The record kept is b's: five more failures lock it.
    for (let i = 0; i < 5; i++) await wrong(throttle, 'b');
    expect((await refusal(right(throttle, 'b'))).type).toBe('TooManyRequests');
  });

  it('counts a login with "@" in any case as one name, as authentication finds it', async () => {
    for (const login of ['carol@example.org', 'Carol@example.org', 'CAROL@EXAMPLE.ORG', 'carol@Example.org'])
      await wrong(throttle, login);
    await wrong(throttle, 'Carol@example.org');
    await wrong(throttle, 'carol@example.org');
    for (const login of ['carol@example.org', 'Carol@example.org', 'cArOl@example.ORG'])
      expect((await refusal(right(throttle, login))).type).toBe('TooManyRequests');
    // Without "@" the case matters, in authentication and here alike.
    for (let i = 0; i < 6; i++) await wrong(throttle, 'jane');
    expect(await right(throttle, 'Jane')).toBe('ok');
  });

  it('keys its records by fixed-size digests: neither the login name nor the address is stored', async () => {
    const long = 'x'.repeat(100_000);
    await wrong(throttle, long, ATTACKER);
    await wrong(throttle, 'carol@example.org', ATTACKER);
    const records = await store.collection('login_attempts').find({});
    expect(records).toHaveLength(3);
    for (const record of records) {
      const text = JSON.stringify(record);
      expect(text.length).toBeLessThan(200);
      for (const clear of ['xxxxxxxx', 'carol', ATTACKER]) expect(text).not.toContain(clear);
    }
  });

  describe('per client address', () => {
    it('counts failures from one address across login names, then refuses it, the right password too', async () => {
      for (let i = 0; i < 8; i++) expect(await wrong(throttle, `user-${i}`, ATTACKER)).toBeNull();
      const locked = await refusal(right(throttle, 'jane', ATTACKER));
      expect(locked.type).toBe('TooManyRequests');
      expect(locked.headers).toEqual({ 'Retry-After': '300' });
      expect(checks).toBe(8);
      // Other addresses are not affected; the lock ends by itself.
      expect(await right(throttle, 'jane', ELSEWHERE)).toBe('ok');
      now += 300_001;
      expect(await right(throttle, 'jane', ATTACKER)).toBe('ok');
    });

    it('lets no more concurrent guesses from one address through than its limit', async () => {
      const guesses = Array.from({ length: 30 }, (_, i) => wrong(throttle, `user-${i}`, ATTACKER));
      const results = await Promise.allSettled(guesses);
      expect(checks).toBe(8);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(22);
    });

    it('does not forget an address’s failures on a success (a login to an account of one’s own would)', async () => {
      for (let i = 0; i < 7; i++) await wrong(throttle, `user-${i}`, ATTACKER);
      expect(await right(throttle, 'mallory', ATTACKER)).toBe('ok');
      await wrong(throttle, 'user-7', ATTACKER);
      expect((await refusal(right(throttle, 'mallory', ATTACKER))).type).toBe('TooManyRequests');
    });

    it('counts an IPv6 /64 as one client (its holder has all of it)', async () => {
      for (let i = 0; i < 8; i++) await wrong(throttle, `user-${i}`, `2001:db8:1:2::${i + 1}`);
      expect((await refusal(right(throttle, 'jane', '2001:db8:1:2:ffff:0:0:9'))).type).toBe('TooManyRequests');
      expect((await refusal(right(throttle, 'jane', '2001:0db8:0001:0002::a'))).type).toBe('TooManyRequests');
      expect(await right(throttle, 'jane', '2001:db8:1:3::1')).toBe('ok');
    });

    it('forgets an address’s failures after the window without attempts', async () => {
      for (let i = 0; i < 7; i++) await wrong(throttle, `user-${i}`, ATTACKER);
      now += 901_000;
      for (let i = 0; i < 7; i++) await wrong(throttle, `other-${i}`, ATTACKER);
      expect(await right(throttle, 'jane', ATTACKER)).toBe('ok');
    });
  });

  describe('per account, from several addresses', () => {
    it('a locked account refuses the addresses that failed, not the right password from one that has not', async () => {
      for (let i = 0; i < 6; i++) await wrong(throttle, 'jane', ATTACKER);
      expect((await refusal(right(throttle, 'jane', ATTACKER))).type).toBe('TooManyRequests');
      slept = [];
      // The real user elsewhere is let in at once: the guesses from another address do not slow it.
      expect(await right(throttle, 'jane', ELSEWHERE)).toBe('ok');
      expect(slept).toEqual([]);
      // That success does not lift the lock for the attacker.
      expect((await refusal(right(throttle, 'jane', ATTACKER))).type).toBe('TooManyRequests');
    });

    it('an address that fails on a locked account is refused from then on, and the lock is not extended', async () => {
      for (let i = 0; i < 6; i++) await wrong(throttle, 'jane', ATTACKER);
      expect(await wrong(throttle, 'jane', ELSEWHERE)).toBeNull();
      expect(checks).toBe(7);
      expect((await refusal(right(throttle, 'jane', ELSEWHERE))).headers).toEqual({ 'Retry-After': '300' });
      expect(checks).toBe(7);
      now += 300_001;
      expect(await right(throttle, 'jane', ELSEWHERE)).toBe('ok');
    });

    it('a locked account lets one guess at a time through from an address that has not failed', async () => {
      for (let i = 0; i < 6; i++) await wrong(throttle, 'jane', ATTACKER);
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => wrong(throttle, 'jane', ELSEWHERE)));
      expect(checks).toBe(7);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(4);
    });

    it('holds a caller whose address is unknown to the account’s lock', async () => {
      for (let i = 0; i < 6; i++) await wrong(throttle, 'jane', ATTACKER);
      expect((await refusal(right(throttle, 'jane'))).type).toBe('TooManyRequests');
      expect(checks).toBe(6);
    });
  });
});
