/** Login tokens: signing, verification, revocation and the persisted key, on an embedded store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { AppError, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { InvalidationHub, type Invalidation } from '../src/domain/invalidations';
import { TokenService } from '../src/domain/tokens';
import type { UserDoc } from '../src/domain/user';

const TTL = 3600;

function user(id: string, roles: string[] = ['Member'], fullname = 'Jane Doe'): UserDoc {
  return { _id: id, login: id, fullname, email: '', roles, password_hash: 'x' } as UserDoc;
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

describe('TokenService', () => {
  let dataDir: string;
  let store: DocumentStore;
  let users: Map<string, UserDoc>;
  let hub: InvalidationHub;
  let published: Invalidation[];
  let now: number;
  let tokens: TokenService;
  let secret: Uint8Array;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-tokens-'));
    store = await openEmbeddedStore(dataDir);
    users = new Map([['jane', user('jane')]]);
    hub = new InvalidationHub();
    published = [];
    hub.onInvalidation((invalidation) => published.push(invalidation));
    now = Date.UTC(2030, 0, 1);
    secret = await TokenService.signingKey(store, undefined);
    tokens = new TokenService({
      secret,
      ttlSeconds: TTL,
      users: { byId: async (id) => users.get(id) ?? null },
      store,
      invalidations: hub,
      principalOf: (u) => ({ id: u._id, roles: u.roles, groups: ['AuthenticatedUsers'], fullname: u.fullname }),
      now: () => now,
    });
    await tokens.ensureIndexes();
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('issues an HS256 JWT whose sub is the user id and exp its expiry', async () => {
    const token = await tokens.issue(user('jane'));
    expect(token.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toEqual({
      sub: 'jane',
      fullname: 'Jane Doe',
      iat: now / 1000,
      exp: now / 1000 + TTL,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const other = decodeJwt(await tokens.issue(user('jane')));
    expect(other.jti).not.toBe(claims.jti);
  });

  it('verifies its own tokens and builds the principal from the current user', async () => {
    const token = await tokens.issue(user('jane'));
    expect(await tokens.principal(token)).toEqual({
      id: 'jane',
      roles: ['Member'],
      groups: ['AuthenticatedUsers'],
      fullname: 'Jane Doe',
    });
    users.set('jane', user('jane', ['Editor'], 'Jane D.'));
    expect(await tokens.principal(token)).toMatchObject({ roles: ['Editor'], fullname: 'Jane D.' });
  });

  it('refuses a forged signature, another algorithm, garbage and a token of another key', async () => {
    const token = await tokens.issue(user('jane'));
    const [header, payload, signature] = token.split('.');
    const flipped = signature[0] === 'A' ? 'B' + signature.slice(1) : 'A' + signature.slice(1);
    const forged = [header, payload, flipped].join('.');
    const adminPayload = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'admin' })).toString('base64url');
    const swapped = [header, adminPayload, signature].join('.');
    const none = [Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'), payload, ''].join(
      '.',
    );
    const otherKey = await new SignJWT({ fullname: '' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('jane')
      .setJti('x')
      .setExpirationTime(now / 1000 + 60)
      .sign(new TextEncoder().encode('another key that is long enough for HS256!'));
    for (const bad of [forged, swapped, none, otherKey, 'not-a-token', '']) {
      const error = await refusal(tokens.principal(bad));
      expect(error.type).toBe('Unauthorized');
    }
  });

  it('refuses an expired token', async () => {
    const token = await tokens.issue(user('jane'));
    now += (TTL - 1) * 1000;
    await expect(tokens.principal(token)).resolves.toMatchObject({ id: 'jane' });
    now += 2000;
    expect((await refusal(tokens.principal(token))).message).toBe('Invalid or expired token');
  });

  it('refuses the token of a user that no longer exists', async () => {
    const token = await tokens.issue(user('jane'));
    users.delete('jane');
    expect((await refusal(tokens.principal(token))).type).toBe('Unauthorized');
  });

  it('refuses a token issued under an earlier token generation of its user (a password change)', async () => {
    users.set('jane', { ...user('jane'), token_generation: 'g1' });
    const token = await tokens.issue(users.get('jane')!);
    expect(decodeJwt(token).gen).toBe('g1');
    await expect(tokens.principal(token)).resolves.toMatchObject({ id: 'jane' });
    users.set('jane', { ...user('jane'), token_generation: 'g2' });
    const error = await refusal(tokens.principal(token));
    expect(error.type).toBe('Unauthorized');
    expect(error.message).toMatch(/password was changed/);
    expect((await refusal(tokens.user(token))).type).toBe('Unauthorized');
    await expect(tokens.principal(await tokens.issue(users.get('jane')!))).resolves.toMatchObject({ id: 'jane' });
  });

  it('refuses the token of a removed user to a new account with the same id', async () => {
    // An account written before generations existed: its tokens carry none, and are good while it has none.
    const legacy = await tokens.issue(user('jane'));
    expect(decodeJwt(legacy).gen).toBeUndefined();
    await expect(tokens.principal(legacy)).resolves.toMatchObject({ id: 'jane' });
    users.delete('jane');
    users.set('jane', { ...user('jane', ['Manager']), token_generation: 'new-account' });
    expect((await refusal(tokens.principal(legacy))).type).toBe('Unauthorized');

    const first = await tokens.issue(users.get('jane')!);
    users.set('jane', { ...user('jane', ['Manager']), token_generation: 'newer-account' });
    expect((await refusal(tokens.principal(first))).type).toBe('Unauthorized');
  });

  it('refuses a generation claim that is not a string', async () => {
    const token = await new SignJWT({ fullname: '', gen: 42 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('jane')
      .setJti('odd')
      .setIssuedAt(now / 1000)
      .setExpirationTime(now / 1000 + 60)
      .sign(secret);
    expect((await refusal(tokens.principal(token))).type).toBe('Unauthorized');
  });

  it('revokes a token once, announces it, and refuses it afterwards', async () => {
    const token = await tokens.issue(user('jane'));
    const claims = await tokens.verify(token);
    expect(await tokens.revoke(claims)).toBe(true);
    expect(published).toEqual([{ token_id: claims.jti }]);
    expect((await refusal(tokens.principal(token))).message).toMatch(/revoked/);
    expect(await tokens.revoke(claims)).toBe(false);
    // Another token of the same user is untouched.
    await expect(tokens.principal(await tokens.issue(user('jane')))).resolves.toMatchObject({ id: 'jane' });
  });

  it('purges revocations of tokens that have expired anyway', async () => {
    const first = await tokens.verify(await tokens.issue(user('jane')));
    await tokens.revoke(first);
    const revoked = store.collection('revoked_tokens');
    expect(await revoked.countDocuments({})).toBe(1);
    now += (TTL + 120) * 1000;
    const second = await tokens.verify(await tokens.issue(user('jane')));
    await tokens.revoke(second);
    expect((await revoked.find({})).map((d) => d._id)).toEqual([second.jti]);
  });

  it('generates the signing key once and keeps it in the store; a configured secret wins', async () => {
    expect(secret.length).toBe(32);
    expect(Buffer.from(await TokenService.signingKey(store, undefined))).toEqual(Buffer.from(secret));
    const token = await tokens.issue(user('jane'));
    await store.close();
    store = await openEmbeddedStore(dataDir);
    const reopened = await TokenService.signingKey(store, undefined);
    expect(Buffer.from(reopened)).toEqual(Buffer.from(secret));
    const again = new TokenService({
      secret: reopened,
      ttlSeconds: TTL,
      users: { byId: async (id) => users.get(id) ?? null },
      store,
      invalidations: hub,
      principalOf: (u) => ({ id: u._id, roles: u.roles, groups: [], fullname: u.fullname }),
      now: () => now,
    });
    await expect(again.principal(token)).resolves.toMatchObject({ id: 'jane' });
    const configured = await TokenService.signingKey(store, 'x'.repeat(40));
    expect(Buffer.from(configured).toString()).toBe('x'.repeat(40));
  });
});
