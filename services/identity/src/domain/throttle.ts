import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';

export interface ThrottleSettings {
  /** Failed attempts answered at full speed. */
  failuresBeforeDelay: number;
  /** Failed attempts after which the login name is locked. */
  failuresBeforeLock: number;
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
  LOGIN_LOCK_SECONDS: number;
  LOGIN_FAILURE_WINDOW_SECONDS: number;
  LOGIN_DELAY_MS: number;
  LOGIN_DELAY_MAX_MS: number;
}): ThrottleSettings {
  return {
    failuresBeforeDelay: config.LOGIN_FAILURES_BEFORE_DELAY,
    failuresBeforeLock: config.LOGIN_FAILURES_BEFORE_LOCK,
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

/** Attempts on one login name, in the identity store so that every identity replica counts the same. */
interface AttemptsDoc extends Document {
  _id: string;
  /** Failed attempts plus attempts in progress. */
  attempts: number;
  /** Milliseconds since the epoch. */
  last_attempt: number;
  locked_until?: number;
}

const PURGE_INTERVAL_MS = 60_000;

/**
 * Slows down and then stops password guessing, per login name (whether or
 * not such a user exists, so the answers do not tell). Every attempt first
 * reserves its place in the count, atomically in the store, so concurrent
 * guesses cannot run past the limit: after `failuresBeforeDelay` failures each
 * attempt waits `delayMs`, doubling up to `maxDelayMs`; the attempt that makes
 * `failuresBeforeLock` failures locks the name for `lockSeconds` (429 with
 * Retry-After); the lock ends by itself, and with it the count. A successful
 * attempt resets the count. A refused attempt counts for nothing and does not
 * extend the lock.
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

  /** How long an attempt waits after `failures` earlier failures. */
  delayFor(failures: number): number {
    const { failuresBeforeDelay, delayMs, maxDelayMs } = this.settings;
    if (failures < failuresBeforeDelay || delayMs === 0) return 0;
    return Math.min(delayMs * 2 ** Math.min(failures - failuresBeforeDelay, 30), maxDelayMs);
  }

  /**
   * Runs one password check for `login` under the throttle: `verify` resolves
   * to the verified value, or null when the credentials are wrong (then this
   * resolves to null too). Throws TooManyRequests while the name is locked.
   */
  async attempt<T>(login: string, verify: () => Promise<T | null>): Promise<T | null> {
    const now = this.now();
    const current = await this.attempts.findOne({ _id: login });
    if (current) {
      if (current.locked_until !== undefined && current.locked_until > now)
        throw this.locked(current.locked_until - now);
      const expired =
        current.locked_until !== undefined || now - current.last_attempt > this.settings.windowSeconds * 1000;
      // Conditional, so that an attempt reserved meanwhile is not lost.
      if (expired) await this.attempts.deleteOne({ _id: login, last_attempt: current.last_attempt });
    }
    const reserved = await this.reserve(login, now);
    if (reserved.locked_until !== undefined && reserved.locked_until > now) {
      throw this.locked(reserved.locked_until - now);
    }
    // Concurrent attempts beyond the limit: the one holding the last place decides whether the name gets locked.
    if (reserved.attempts > this.settings.failuresBeforeLock) throw this.locked(this.settings.lockSeconds * 1000);

    const delay = this.delayFor(reserved.attempts - 1);
    if (delay > 0) await (this.clock.sleep ?? sleep)(delay);
    const result = await verify();
    if (result !== null) {
      await this.attempts.deleteOne({ _id: login });
      return result;
    }
    if (reserved.attempts >= this.settings.failuresBeforeLock) {
      await this.attempts.updateOne(
        { _id: login },
        { $set: { locked_until: this.now() + this.settings.lockSeconds * 1000 } },
      );
    }
    await this.purge();
    return null;
  }

  private now(): number {
    return (this.clock.now ?? Date.now)();
  }

  private async reserve(login: string, now: number): Promise<AttemptsDoc> {
    const update = { $inc: { attempts: 1 }, $set: { last_attempt: now } };
    for (let tries = 0; ; tries++) {
      try {
        const doc = await this.attempts.findOneAndUpdate({ _id: login }, update, {
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

  private locked(remainingMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
    return new AppError(
      'TooManyRequests',
      `Too many failed logins for this login name; try again in ${seconds} s`,
      undefined,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }

  /** Forgets names without an attempt for longer than the window and the lock (at most once a minute). */
  private async purge(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    const keepMs = Math.max(this.settings.windowSeconds, this.settings.lockSeconds) * 1000;
    await this.attempts.deleteMany({ last_attempt: { $lt: now - keepMs } });
  }
}
