import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';
import { normalizedLogin } from './user';

export interface ThrottleSettings {
  /** Failed attempts on a login name answered at full speed. */
  failuresBeforeDelay: number;
  /** Failed attempts after which the login name is locked (for the addresses that failed). */
  failuresBeforeLock: number;
  /** Failed attempts from one client address, on any login names, after which the address is locked. */
  clientFailuresBeforeLock: number;
  lockSeconds: number;
  /** Failures are forgotten after this long without another attempt. */
  windowSeconds: number;
  /** First delay; it doubles per further failure, up to `maxDelayMs`. */
  delayMs: number;
  maxDelayMs: number;
}

export function throttleSettingsOf(config: {
  LOGIN_FAILURES_BEFORE_DELAY: number;
  LOGIN_FAILURES_BEFORE_LOCK: number;
  LOGIN_CLIENT_FAILURES_BEFORE_LOCK: number;
  LOGIN_LOCK_SECONDS: number;
  LOGIN_FAILURE_WINDOW_SECONDS: number;
  LOGIN_DELAY_MS: number;
  LOGIN_DELAY_MAX_MS: number;
}): ThrottleSettings {
  return {
    failuresBeforeDelay: config.LOGIN_FAILURES_BEFORE_DELAY,
    failuresBeforeLock: config.LOGIN_FAILURES_BEFORE_LOCK,
    clientFailuresBeforeLock: config.LOGIN_CLIENT_FAILURES_BEFORE_LOCK,
    lockSeconds: config.LOGIN_LOCK_SECONDS,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    delayMs: config.LOGIN_DELAY_MS,
    maxDelayMs: config.LOGIN_DELAY_MAX_MS,
  };
}

/** The throttle's time: tests pass a fake clock and a sleep that records the delays asked for. */
export interface ThrottleClock {
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Attempts on one login name or from one client, in the identity store so that every identity replica counts
 * the same. Keyed by a digest, so a record has the same small size whatever was typed.
 */
interface AttemptsDoc extends Document {
  _id: string;
  /** Failed attempts plus attempts in progress. */
  attempts: number;
  /** Milliseconds since the epoch. */
  last_attempt: number;
  locked_until?: number;
}

/** What a count is kept for; the refusal says which. */
type Counted = 'account' | 'client';

const PURGE_INTERVAL_MS = 60_000;

/**
 * Slows down and then stops password guessing, with two counts per attempt,
 * each reserved atomically in the store before the password is checked so
 * that concurrent guesses cannot run past a limit:
 *
 * - per client address, across login names: `clientFailuresBeforeLock`
 *   failures lock the address for `lockSeconds`, whatever name it tries next
 *   (no spraying guesses over many names). A success does not reset it (else
 *   a login to one's own account would).
 * - per login name, normalised as authentication finds accounts, whether or
 *   not such a user exists: after `failuresBeforeDelay` failures each attempt
 *   waits `delayMs`, doubling up to `maxDelayMs`; `failuresBeforeLock`
 *   failures lock the name for `lockSeconds`. The delay and the lock hold only
 *   for clients that have failed (or are trying) lately: an address with no
 *   failures in its count gets the password checked at once (one attempt at a
 *   time; after a failure it is held too). So an attacker cannot lock the real user out, and
 *   a distributed attack gets one guess per fresh address. A caller whose
 *   address is unknown is held to the lock.
 *
 * Locks end by themselves, and with them the count. A refused attempt counts
 * for nothing and extends no lock; a success resets the name's count unless
 * it is locked.
 */
export class LoginThrottle {
  private readonly attempts: Collection<AttemptsDoc>;
  private lastPurge = 0;

  constructor(
    store: DocumentStore,
    private readonly settings: ThrottleSettings,
    private readonly clock: ThrottleClock = {},
  ) {
    this.attempts = store.collection<AttemptsDoc>('login_attempts');
  }

  async ensureIndexes(): Promise<void> {
    await this.attempts.createIndex({ last_attempt: 1 });
  }

  /** How long an attempt waits after `failures` earlier failures on its login name. */
  delayFor(failures: number): number {
    const { failuresBeforeDelay, delayMs, maxDelayMs } = this.settings;
    if (failures < failuresBeforeDelay || delayMs === 0) return 0;
    return Math.min(delayMs * 2 ** Math.min(failures - failuresBeforeDelay, 30), maxDelayMs);
  }

  /**
   * Runs one password check for `login` from `clientAddress` (unknown: none)
   * under the throttle: `verify` resolves to the verified value, or null when
   * the credentials are wrong (then this resolves to null too). Throws
   * TooManyRequests while the address, or the name for this address, is locked.
   */
  async attempt<T>(login: string, verify: () => Promise<T | null>, clientAddress?: string): Promise<T | null> {
    const now = this.now();
    const client = clientAddress ? await this.enter(clientKey(clientAddress), 'client', now) : undefined;
    let account: AttemptsDoc;
    try {
      // Its own attempt the only one in its count: this address has not been failing.
      account = await this.enter(accountKey(login), 'account', now, client?.attempts !== 1);
    } catch (error) {
      if (client) await this.release(client._id);
      throw error;
    }

    // An address with no failures in its count is not slowed by the name's failures either: else guesses from
    // elsewhere would make the real user wait (one guess at a time still holds for such addresses, above).
    const cleanClient = client?.attempts === 1;
    const delay = cleanClient ? 0 : this.delayFor(account.attempts - 1);
    if (delay > 0) await (this.clock.sleep ?? sleep)(delay);
    const result = await verify();
    const accountLocked = isLocked(account, now);
    if (result !== null) {
      if (accountLocked) await this.release(account._id);
      else await this.attempts.deleteOne({ _id: account._id });
      if (client) await this.release(client._id);
      return result;
    }
    if (!accountLocked) await this.lockWhenFull(account, this.settings.failuresBeforeLock);
    if (client) await this.lockWhenFull(client, this.settings.clientFailuresBeforeLock);
    await this.purge();
    return null;
  }

  private now(): number {
    return (this.clock.now ?? Date.now)();
  }

  /**
   * Takes a place for one attempt in the count under `key`, after forgetting a
   * count whose window or lock has passed. Refuses while the key is locked or
   * its places are taken, unless `honourLock` is false.
   */
  private async enter(key: string, counted: Counted, now: number, honourLock = true): Promise<AttemptsDoc> {
    const current = await this.attempts.findOne({ _id: key });
    if (current) {
      const locked = isLocked(current, now);
      if (locked && honourLock) throw this.locked(counted, current.locked_until! - now);
      const expired =
        current.locked_until !== undefined ? !locked : now - current.last_attempt > this.settings.windowSeconds * 1000;
      // Conditional, so that an attempt reserved meanwhile is not lost.
      if (expired) await this.attempts.deleteOne({ _id: key, last_attempt: current.last_attempt });
    }
    const reserved = await this.reserve(key, now);
    if (!honourLock) return reserved;
    const limit = counted === 'client' ? this.settings.clientFailuresBeforeLock : this.settings.failuresBeforeLock;
    // Locked meanwhile, or concurrent attempts beyond the limit: the one holding the last place decides the lock.
    if (isLocked(reserved, now) || reserved.attempts > limit) {
      await this.release(key);
      throw this.locked(counted, isLocked(reserved, now) ? reserved.locked_until! - now : this.lockMs());
    }
    return reserved;
  }

  private async reserve(key: string, now: number): Promise<AttemptsDoc> {
    const update = { $inc: { attempts: 1 }, $set: { last_attempt: now } };
    for (let tries = 0; ; tries++) {
      try {
        const doc = await this.attempts.findOneAndUpdate({ _id: key }, update, {
          upsert: true,
          returnDocument: 'after',
        });
        if (doc) return doc;
      } catch (error) {
        // Two first attempts upserting at once: the loser retries as an update.
        if (!(error instanceof DuplicateKeyError) || tries > 0) throw error;
      }
    }
  }

  /** Gives back a place that was not a failure (a success, a refusal); gone records stay gone. */
  private async release(key: string): Promise<void> {
    await this.attempts.updateOne({ _id: key }, { $inc: { attempts: -1 } });
  }

  private async lockWhenFull(reserved: AttemptsDoc, limit: number): Promise<void> {
    if (reserved.attempts < limit) return;
    await this.attempts.updateOne({ _id: reserved._id }, { $set: { locked_until: this.now() + this.lockMs() } });
  }

  private lockMs(): number {
    return this.settings.lockSeconds * 1000;
  }

  private locked(counted: Counted, remainingMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
    const from = counted === 'client' ? 'from this address' : 'for this login name';
    return new AppError(
      'TooManyRequests',
      `Too many failed logins ${from}; try again in ${seconds} s`,
      undefined,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }

  /** Forgets names and addresses without an attempt for longer than the window and the lock (at most once a minute). */
  private async purge(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    const keepMs = Math.max(this.settings.windowSeconds, this.settings.lockSeconds) * 1000;
    await this.attempts.deleteMany({ last_attempt: { $lt: now - keepMs } });
  }
}

function isLocked(doc: AttemptsDoc, now: number): boolean {
  return doc.locked_until !== undefined && doc.locked_until > now;
}

function accountKey(login: string): string {
  return 'account:' + digest(normalizedLogin(login));
}

function clientKey(address: string): string {
  return 'client:' + digest(clientOf(address));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * The client an address stands for: an IPv4 address, or an IPv6 /64, which
 * one host holds whole (counted per address, it would have 2^64 budgets).
 * Anything else is taken as it is.
 */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address.split('%')[0]);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight groups of an IPv6 address, without leading zeros; null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  // An IPv4 tail (`64:ff9b::192.0.2.1`) stands for the last two groups, outside the /64.
  const halves = address
    .toLowerCase()
    .replace(/\d{1,3}(?:\.\d{1,3}){3}$/, '0:0')
    .split('::');
  if (halves.length > 2) return null;
  const [head, tail] = halves.map((half) => (half ? half.split(':') : []));
  const missing = 8 - head.length - (tail?.length ?? 0);
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(Math.max(missing, 0)).fill('0'), ...(tail ?? [])];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16).toString(16));
}
