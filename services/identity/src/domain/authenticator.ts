import { createHmac, randomBytes } from 'node:crypto';
import { unauthorized, type Principal } from '@cms/shared';
import type { Invalidation, InvalidationHub } from './invalidations';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from './passwords';
import type { LoginThrottle } from './throttle';
import type { TokenService } from './tokens';
import { MAX_LOGIN_LENGTH, type UserDoc } from './user';

export interface UserLookup {
  byLogin(login: string): Promise<UserDoc | null>;
}

interface CachedLogin {
  principal: Principal;
  expires: number;
}

export interface AuthenticatorOptions {
  /** The principal of a verified user, built from the current records (roles of its groups included). */
  principalOf: (user: UserDoc) => Principal | Promise<Principal>;
  /** Throttles password checks per client address and per login name; none: unthrottled. */
  throttle?: LoginThrottle;
  /** Verifies Bearer tokens; none: every token is refused. */
  tokens?: TokenService;
  /** Cached logins are dropped on the invalidations published here. */
  invalidations?: InvalidationHub;
  now?: () => number;
}

const MAX_CACHED_LOGINS = 10_000;
const LOGIN_FAILED = 'Login failed: wrong login name or password';

/**
 * Verifies credentials: login name and password (HTTP Basic and POST
 * /@login), throttled per client address and per login name, and Bearer
 * tokens. A verified Basic pair is remembered for a short time under a keyed
 * hash of the pair (never the password itself), so the hashing cost is paid
 * per login rather than per request; a remembered pair is not a guess, so it
 * skips the throttle.
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedLogin>();
  private readonly cacheKeySecret = randomBytes(32);
  private readonly now: () => number;
  /** Compared against when the login name is unknown, so both cases take as long. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly users: UserLookup,
    private readonly cacheTtlMs: number,
    private readonly options: AuthenticatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    options.invalidations?.onInvalidation((invalidation) => this.invalidate(invalidation));
  }

  /** `clientAddress`: where the request came from, as the gateway saw it (unknown: the throttle assumes the worst). */
  async basic(login: string, password: string, clientAddress?: string): Promise<Principal> {
    checkLengths(login, password);
    const key = createHmac('sha256', this.cacheKeySecret).update(login).update('\0').update(password).digest('base64');
    const cached = this.cache.get(key);
    if (cached && cached.expires > this.now()) return cached.principal;
    this.cache.delete(key);

    const principal = await this.options.principalOf(await this.verifyPassword(login, password, clientAddress));
    if (this.cacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHED_LOGINS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, { principal, expires: this.now() + this.cacheTtlMs });
    }
    return principal;
  }

  /** A login name and password checked under the throttle; 401 when wrong, 429 while locked. */
  async verifyPassword(login: string, password: string, clientAddress?: string): Promise<UserDoc> {
    checkLengths(login, password);
    const check = async () => {
      const user = await this.users.byLogin(login);
      const ok = await verifyPassword(password, user?.password_hash ?? (await this.decoy()));
      return ok && user ? user : null;
    };
    const { throttle } = this.options;
    const user = throttle ? await throttle.attempt(login, check, clientAddress) : await check();
    if (!user) throw unauthorized(LOGIN_FAILED);
    return user;
  }

  /** The principal of a Bearer token (signature, expiry, revocation, user still there). */
  async bearer(token: string): Promise<Principal> {
    if (!this.options.tokens) throw unauthorized('Invalid or expired token');
    return this.options.tokens.principal(token);
  }

  /** Forgets cached logins, e.g. after a password or role change. */
  forgetAll(): void {
    this.cache.clear();
  }

  forgetUser(userId: string): void {
    for (const [key, entry] of this.cache) if (entry.principal.id === userId) this.cache.delete(key);
  }

  private invalidate(invalidation: Invalidation): void {
    if ('all' in invalidation) this.forgetAll();
    else if ('user_id' in invalidation) this.forgetUser(invalidation.user_id);
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= hashPassword(randomBytes(16).toString('base64'));
    return this.decoyHash;
  }
}

/** Longer than any login name or password can be: wrong, and worth neither a look-up, nor a hash, nor a record. */
function checkLengths(login: string, password: string): void {
  if (login.length > MAX_LOGIN_LENGTH || password.length > MAX_PASSWORD_LENGTH) throw unauthorized(LOGIN_FAILED);
}
