import { createHmac, randomBytes } from 'node:crypto';
import { unauthorized, type Principal } from '@cms/shared';
import { verifyPassword } from './passwords';
import { principalOf, type UserDoc } from './user';

export interface UserLookup {
  byLogin(login: string): Promise<UserDoc | null>;
}

interface CachedLogin {
  principal: Principal;
  expires: number;
}

const MAX_CACHED_LOGINS = 10_000;

/**
 * Verifies Basic credentials. A verified pair is remembered for a short time
 * under a keyed hash of the pair (never the password itself), so the hashing
 * cost is paid per login rather than per request.
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedLogin>();
  private readonly cacheKeySecret = randomBytes(32);

  constructor(
    private readonly users: UserLookup,
    private readonly cacheTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async basic(login: string, password: string): Promise<Principal> {
    const key = createHmac('sha256', this.cacheKeySecret).update(login).update('\0').update(password).digest('base64');
    const cached = this.cache.get(key);
    if (cached && cached.expires > this.now()) return cached.principal;
    this.cache.delete(key);

    const user = await this.users.byLogin(login);
    if (!user || !(await verifyPassword(password, user.password_hash)))
      throw unauthorized('Login failed: wrong login name or password');
    const principal = principalOf(user);
    if (this.cache.size >= MAX_CACHED_LOGINS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { principal, expires: this.now() + this.cacheTtlMs });
    return principal;
  }

  /** Forgets cached logins, e.g. after a password or role change. */
  forgetAll(): void {
    this.cache.clear();
  }
}
