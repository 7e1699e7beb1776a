import { randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import {
  DuplicateKeyError,
  unauthorized,
  type Collection,
  type Document,
  type DocumentStore,
  type Principal,
} from '@cms/shared';
import type { InvalidationHub } from './invalidations';
import type { UserDoc } from './user';

export interface UserById {
  byId(id: string): Promise<UserDoc | null>;
}

/** What a verified token says (addendum §7: `sub` is the user id, `exp` the expiry). */
export interface TokenClaims {
  sub: string;
  jti: string;
  /** Seconds since the epoch. */
  exp: number;
  iat: number;
  fullname: string;
  /** The user's token generation when it was issued (UserDoc.token_generation); none for accounts without one. */
  gen?: string;
}

/** A revoked token until its own expiry; afterwards its signature check refuses it anyway. */
interface RevokedTokenDoc extends Document {
  _id: string;
  user_id: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

interface SettingDoc extends Document {
  _id: string;
  value: string;
}

const ALGORITHM = 'HS256';
const SECRET_SETTING = 'jwt_secret';
const PURGE_INTERVAL_MS = 60_000;
const INVALID = 'Invalid or expired token';
const SUPERSEDED = 'Token is no longer valid: the password was changed or the account was replaced';

export interface TokenServiceOptions {
  secret: Uint8Array;
  ttlSeconds: number;
  users: UserById;
  store: DocumentStore;
  invalidations: InvalidationHub;
  /** Builds the principal from the current user record, so role changes apply to tokens already issued. */
  principalOf: (user: UserDoc) => Principal | Promise<Principal>;
  now?: () => number;
}

/**
 * Login tokens: HS256 JWTs signed with one identity-wide key, revocable by
 * their `jti` (logout, renew). Only the identity service knows the key; the
 * gateway asks identity (Authenticate) and caches the answer.
 */
export class TokenService {
  private readonly revoked: Collection<RevokedTokenDoc>;
  private readonly now: () => number;
  private lastPurge = 0;

  constructor(private readonly options: TokenServiceOptions) {
    this.revoked = options.store.collection<RevokedTokenDoc>('revoked_tokens');
    this.now = options.now ?? Date.now;
  }

  /**
   * The signing key: JWT_SECRET when configured; otherwise one generated on
   * first start and kept in the store, so tokens outlive a restart.
   */
  static async signingKey(store: DocumentStore, configured: string | undefined): Promise<Uint8Array> {
    if (configured) return new TextEncoder().encode(configured);
    const settings = store.collection<SettingDoc>('settings');
    const existing = await settings.findOne({ _id: SECRET_SETTING });
    if (existing) return Buffer.from(existing.value, 'base64');
    try {
      await settings.insertOne({ _id: SECRET_SETTING, value: randomBytes(32).toString('base64') });
    } catch (error) {
      // Another replica generated it first: use theirs.
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const stored = await settings.findOne({ _id: SECRET_SETTING });
    if (!stored) throw new Error('the generated token key was not stored');
    return Buffer.from(stored.value, 'base64');
  }

  async ensureIndexes(): Promise<void> {
    await this.revoked.createIndex({ expires_at: 1 });
  }

  async issue(user: UserDoc): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    const generation = user.token_generation ? { gen: user.token_generation } : {};
    return new SignJWT({ fullname: user.fullname ?? '', ...generation })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(user._id)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.options.ttlSeconds)
      .sign(this.options.secret);
  }

  /** Signature, expiry and revocation; 401 otherwise. */
  async verify(token: string): Promise<TokenClaims> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.options.secret, {
        algorithms: [ALGORITHM],
        requiredClaims: ['sub', 'exp', 'jti'],
        currentDate: new Date(this.now()),
      }));
    } catch {
      throw unauthorized(INVALID);
    }
    const { sub, jti, exp, iat, fullname, gen } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') throw unauthorized(INVALID);
    if (gen !== undefined && typeof gen !== 'string') throw unauthorized(INVALID);
    if (await this.revoked.findOne({ _id: jti })) throw unauthorized('Token has been revoked (logged out)');
    return {
      sub,
      jti,
      exp,
      iat: typeof iat === 'number' ? iat : 0,
      fullname: typeof fullname === 'string' ? fullname : '',
      ...(gen === undefined ? {} : { gen }),
    };
  }

  /**
   * The verified token's user, who must still exist, as the account the token was issued for: issued under the
   * user's current token generation (not before a password change, nor to a removed account with the same id).
   */
  async user(token: string): Promise<{ claims: TokenClaims; user: UserDoc }> {
    const claims = await this.verify(token);
    const user = await this.options.users.byId(claims.sub);
    if (!user) throw unauthorized(INVALID);
    if (claims.gen !== user.token_generation) throw unauthorized(SUPERSEDED);
    return { claims, user };
  }

  /** The principal of a token, built from the current user record. */
  async principal(token: string): Promise<Principal> {
    return this.options.principalOf((await this.user(token)).user);
  }

  /**
   * Revokes a token and tells every gateway; resolves once they have been
   * told. False when it was already revoked (so two renewals of one token
   * cannot both succeed).
   */
  async revoke(claims: Pick<TokenClaims, 'jti' | 'sub' | 'exp'>): Promise<boolean> {
    let first = true;
    try {
      await this.revoked.insertOne({ _id: claims.jti, user_id: claims.sub, expires_at: claims.exp * 1000 });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      first = false;
    }
    await this.options.invalidations.tokenRevoked(claims.jti);
    await this.purgeExpired();
    return first;
  }

  /** Drops revocations of tokens that have expired by now (at most once a minute). */
  async purgeExpired(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    await this.revoked.deleteMany({ expires_at: { $lt: now } });
  }
}
