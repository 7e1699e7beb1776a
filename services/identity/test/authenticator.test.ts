/** The Authenticator: Basic credentials (cached, throttled), Bearer tokens, and its cache invalidation. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { Authenticator } from '../src/domain/authenticator';
import { InvalidationHub } from '../src/domain/invalidations';
import { hashPassword } from '../src/domain/passwords';
import { LoginThrottle } from '../src/domain/throttle';
import { TokenService } from '../src/domain/tokens';
import type { UserDoc } from '../src/domain/user';

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Authenticator', () => {
  let dataDir: string;
  let store: DocumentStore;
  let users: Map<string, UserDoc>;
  let lookups: number;
  let hub: InvalidationHub;
  let tokens: TokenService;
  let authenticator: Authenticator;
  /** The delays the throttle asked for (a recording sleep instead of a real one). */
  let slept: number[];
  const principalOf = (u: UserDoc) => ({ id: u._id, roles: u.roles, groups: [], fullname: u.fullname });

  beforeAll(async () => {
    const hash = await hashPassword('secret');
    users = new Map([
      ['jane', { _id: 'jane', login: 'jane', fullname: 'Jane', email: '', roles: ['Member'], password_hash: hash }],
      ['bob', { _id: 'bob', login: 'bob', fullname: 'Bob', email: '', roles: ['Editor'], password_hash: hash }],
    ] as [string, UserDoc][]);
  });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-authenticator-'));
    store = await openEmbeddedStore(dataDir);
    lookups = 0;
    hub = new InvalidationHub();
    const lookup = {
      byLogin: async (login: string) => {
        lookups++;
        return [...users.values()].find((u) => u.login === login) ?? null;
      },
      byId: async (id: string) => users.get(id) ?? null,
    };
    tokens = new TokenService({
      secret: new TextEncoder().encode('k'.repeat(32)),
      ttlSeconds: 60,
      users: lookup,
      store,
      invalidations: hub,
      principalOf,
    });
    slept = [];
    const throttle = new LoginThrottle(
      store,
      {
        failuresBeforeDelay: 2,
        failuresBeforeLock: 4,
        lockSeconds: 60,
        windowSeconds: 600,
        delayMs: 100,
        maxDelayMs: 150,
        clientFailuresBeforeLock: 6,
      },
      { sleep: async (ms) => void slept.push(ms) },
    );
    authenticator = new Authenticator(lookup, 60_000, { throttle, tokens, invalidations: hub, principalOf });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('verifies Basic credentials once and remembers them', async () => {
    expect(await authenticator.basic('jane', 'secret')).toEqual({
      id: 'jane',
      roles: ['Member'],
      groups: [],
      fullname: 'Jane',
    });
    await authenticator.basic('jane', 'secret');
    expect(lookups).toBe(1);
  });

  it('refuses a wrong password and an unknown login alike', async () => {
    const wrong = await refusal(authenticator.basic('jane', 'guess'));
    const unknown = await refusal(authenticator.basic('nobody', 'guess'));
    expect(wrong.type).toBe('Unauthorized');
    expect(unknown.message).toBe(wrong.message);
  });

  it('throttles Basic and password logins per login name, in one count', async () => {
    await refusal(authenticator.basic('bob', 'a'));
    await refusal(authenticator.verifyPassword('bob', 'b'));
    await refusal(authenticator.basic('bob', 'c'));
    expect((await refusal(authenticator.verifyPassword('bob', 'd'))).type).toBe('Unauthorized');
    // The third and fourth failures waited, whichever way they came.
    expect(slept).toEqual([100, 150]);
    const locked = await refusal(authenticator.basic('bob', 'secret'));
    expect(locked.type).toBe('TooManyRequests');
    expect(locked.headers?.['Retry-After']).toBe('60');
    expect((await refusal(authenticator.verifyPassword('bob', 'secret'))).type).toBe('TooManyRequests');
    // Other names are not affected, and a locked name is refused without a wait.
    await expect(authenticator.basic('jane', 'secret')).resolves.toMatchObject({ id: 'jane' });
    expect(slept).toEqual([100, 150]);
  });

  it('throttles per client address too: Basic and password logins from one address count across names', async () => {
    const from = '203.0.113.7';
    for (let i = 0; i < 3; i++) await refusal(authenticator.basic(`user-${i}`, 'guess', from));
    for (let i = 3; i < 6; i++) await refusal(authenticator.verifyPassword(`user-${i}`, 'guess', from));
    expect((await refusal(authenticator.verifyPassword('jane', 'secret', from))).type).toBe('TooManyRequests');
    expect((await refusal(authenticator.basic('jane', 'secret', from))).type).toBe('TooManyRequests');
    await expect(authenticator.basic('jane', 'secret', '203.0.113.8')).resolves.toMatchObject({ id: 'jane' });
  });

  it('lets the right password in from an address that has not failed while the account is locked', async () => {
    for (const guess of ['a', 'b', 'c', 'd']) await refusal(authenticator.basic('bob', guess, '198.51.100.1'));
    expect((await refusal(authenticator.basic('bob', 'secret', '198.51.100.1'))).type).toBe('TooManyRequests');
    await expect(authenticator.verifyPassword('bob', 'secret', '192.0.2.10')).resolves.toMatchObject({ _id: 'bob' });
    await expect(authenticator.basic('bob', 'secret', '192.0.2.11')).resolves.toMatchObject({ id: 'bob' });
  });

  it('refuses an over-long login name or password at once: no look-up, no hash, nothing stored', async () => {
    const attempts = store.collection('login_attempts');
    for (const [login, password] of [
      ['x'.repeat(5_000_000), 'guess'],
      ['jane', 'p'.repeat(1001)],
    ]) {
      const refused = await refusal(authenticator.basic(login, password, '203.0.113.7'));
      expect(refused.type).toBe('Unauthorized');
      expect(refused.message.length).toBeLessThan(100);
      expect((await refusal(authenticator.verifyPassword(login, password))).type).toBe('Unauthorized');
    }
    expect(lookups).toBe(0);
    expect(await attempts.countDocuments({})).toBe(0);
  });

  it('keeps answering remembered credentials during a lock: they are not a guess', async () => {
    await authenticator.basic('bob', 'secret');
    for (const guess of ['a', 'b', 'c', 'd']) await refusal(authenticator.basic('bob', guess));
    await expect(authenticator.basic('bob', 'secret')).resolves.toMatchObject({ id: 'bob' });
  });

  it('forgets remembered credentials of a changed user, or all', async () => {
    await authenticator.basic('jane', 'secret');
    await authenticator.basic('bob', 'secret');
    await hub.userChanged('jane');
    await authenticator.basic('jane', 'secret');
    await authenticator.basic('bob', 'secret');
    expect(lookups).toBe(3);
    await hub.allChanged();
    await authenticator.basic('bob', 'secret');
    expect(lookups).toBe(4);
  });

  it('does not remember anything with a TTL of 0', async () => {
    const uncached = new Authenticator({ byLogin: async (l) => (lookups++, users.get(l) ?? null) }, 0, {
      principalOf,
    });
    await uncached.basic('jane', 'secret');
    await uncached.basic('jane', 'secret');
    expect(lookups).toBe(2);
  });

  it('verifies Bearer tokens through the token service', async () => {
    const token = await tokens.issue(users.get('jane')!);
    await expect(authenticator.bearer(token)).resolves.toMatchObject({ id: 'jane' });
    expect((await refusal(authenticator.bearer(token + 'x'))).type).toBe('Unauthorized');
    const tokenless = new Authenticator({ byLogin: async () => null }, 0, { principalOf });
    expect((await refusal(tokenless.bearer(token))).type).toBe('Unauthorized');
  });
});
