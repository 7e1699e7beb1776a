/** Throttling of failed logins per login name, on an embedded store, with a fake clock. */
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
};

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
  const wrong = (t = throttle, login = 'jane') =>
    t.attempt(login, async () => {
      checks++;
      return null;
    });
  const right = (t = throttle, login = 'jane') =>
    t.attempt(login, async () => {
      checks++;
      return 'ok';
    });
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
    const names = (await store.collection('login_attempts').find({})).map((d) => d._id);
    expect(names).toEqual(['b']);
  });
});
