import { createHmac, randomBytes } from 'node:crypto';
import type { Principal__Output } from '@cms/shared';

/** `cms.identity.v1.Invalidation` as received (oneof `target`). */
export interface Invalidation {
  token_id?: string;
  user_id?: string;
  all?: boolean;
  target?: 'token_id' | 'user_id' | 'all';
}

interface Entry {
  principal: Principal__Output;
  /** Milliseconds since the epoch. */
  expires: number;
  /** The `jti` of a Bearer token, for invalidation by token. */
  tokenId?: string;
}

/** What the gateway reads, unverified, from a token that identity has just verified. */
export interface TokenHints {
  jti?: string;
  /** Seconds since the epoch. */
  exp?: number;
}

export const MAX_CACHED_CREDENTIALS = 10_000;

/**
 * The gateway's memory of verified Authorization headers → principal, so that
 * a request with credentials costs no call to identity. Keys are an HMAC of
 * the header under a key of this process (never the header itself). Entries
 * live `ttlMs` (never past a token's own expiry); the oldest goes first when
 * the cache is full.
 *
 * Fail safe: the cache is used only while the invalidation stream from
 * identity is open (`setConnected`); losing it empties the cache. An answer
 * from identity is kept only when no invalidation arrived while it was on its
 * way (`ticket`), so a logout racing with a verification cannot leave the old
 * answer behind.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hmacKey = randomBytes(32);
  private connected = false;
  /** Bumped by every invalidation and connection change. */
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = MAX_CACHED_CREDENTIALS,
    private readonly now: () => number = Date.now,
  ) {}

  /** False while disabled (TTL 0) or while the invalidation stream is not open. */
  get active(): boolean {
    return this.connected && this.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  keyOf(authorization: string): string {
    return createHmac('sha256', this.hmacKey).update(authorization).digest('base64');
  }

  get(key: string): Principal__Output | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > this.now()) return entry.principal;
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before asking identity; `set` with a ticket that an invalidation has outdated keeps nothing. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, ticket: number, principal: Principal__Output, token?: TokenHints): void {
    if (!this.active || ticket !== this.generation) return;
    let expires = this.now() + this.ttlMs;
    if (token?.exp !== undefined) expires = Math.min(expires, token.exp * 1000);
    if (expires <= this.now()) return;
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { principal, expires, tokenId: token?.jti });
  }

  invalidate(invalidation: Invalidation): void {
    this.generation++;
    if (invalidation.target === 'all' || invalidation.all) {
      this.entries.clear();
    } else if (invalidation.target === 'token_id' || invalidation.token_id) {
      const tokenId = invalidation.token_id;
      for (const [key, entry] of this.entries) if (entry.tokenId === tokenId) this.entries.delete(key);
    } else if (invalidation.target === 'user_id' || invalidation.user_id) {
      const userId = invalidation.user_id;
      for (const [key, entry] of this.entries) if (entry.principal.id === userId) this.entries.delete(key);
    } else {
      // Unknown kind (a newer identity): trust nothing.
      this.entries.clear();
    }
  }

  setConnected(connected: boolean): void {
    this.generation++;
    this.connected = connected;
    // Whatever was cached may have missed invalidations while the stream was down.
    this.entries.clear();
  }
}

/** `jti` and `exp` of a JWT, read without verifying (identity has verified it); {} when unreadable. */
export function tokenHints(token: string): TokenHints {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    if (!payload || typeof payload !== 'object') return {};
    const { jti, exp } = payload as Record<string, unknown>;
    return {
      jti: typeof jti === 'string' ? jti : undefined,
      exp: typeof exp === 'number' ? exp : undefined,
    };
  } catch {
    return {};
  }
}
