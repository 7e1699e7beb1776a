/**
 * Taking, refreshing and releasing locks (`@lock`, and the deprecated `@unlock` and `@refresh-lock`). A lock is
 * a member of the object, written through the write path like any change (its own kind, which the lock check
 * lets through: these commands apply the lock rules themselves). The permission they need is the one `@lock`
 * declares, which the dispatcher checked: the writes take the caller's proof of it (`Caller.proof`).
 */
import type { Caller } from '../content/caller';
import { forbidden } from '@cms/shared';
import {
  DEFAULT_LOCK_TIMEOUT_S,
  holds,
  liveLock,
  lockedError,
  mayBreak,
  newLock,
  STEALABLE_LOCK,
  type StoredLock,
} from './locks';
import type { ContentDoc } from '../content/model';
import type { ContentWriter } from '../content/write-path';

export interface LockRequest {
  stealable?: boolean;
  timeout?: number;
}

export class LockCommands {
  constructor(
    private readonly writer: ContentWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The object's live lock. */
  current(doc: ContentDoc): StoredLock | null {
    return liveLock(doc, this.now());
  }

  /**
   * Locks the object for the caller. A lock someone else holds stays as it is (the answer shows it); the
   * caller's own lock is kept, token and all, so a second edit form of the same user shares it.
   */
  async lock(doc: ContentDoc, request: LockRequest, caller: Caller): Promise<ContentDoc> {
    const written = await this.writer.write(
      doc,
      {
        kind: 'lock',
        plan: (current) => {
          if (this.current(current)) return null;
          const lock = newLock(
            caller.principal?.id ?? '',
            {
              stealable: request.stealable ?? true,
              timeout: request.timeout ?? DEFAULT_LOCK_TIMEOUT_S,
              name: STEALABLE_LOCK,
            },
            this.now(),
          );
          return { set: { lock }, events: () => [] };
        },
      },
      caller,
    );
    return written.after;
  }

  /** Restarts the holder's lock's timeout; anyone else is refused (an unlocked object is answered as it is). */
  async refresh(doc: ContentDoc, caller: Caller): Promise<ContentDoc> {
    const written = await this.writer.write(
      doc,
      {
        kind: 'lock',
        plan: (current) => {
          const lock = this.current(current);
          if (!lock) return null;
          if (!holds(lock, caller)) throw lockedError(current, lock);
          return { set: { lock: { ...lock, created: this.now().toISOString() } }, events: () => [] };
        },
      },
      caller,
    );
    return written.after;
  }

  /**
   * Releases the lock. The holder (or a request with its token) always may; with `force`, whoever may break it
   * (mayBreak; 403 for the others). Anyone else asking without `force` is answered with the lock unchanged
   * (addendum §8), not refused.
   */
  async unlock(doc: ContentDoc, force: boolean, caller: Caller): Promise<ContentDoc> {
    const written = await this.writer.write(
      doc,
      {
        kind: 'lock',
        plan: (current) => {
          if (!current.lock) return null;
          const lock = this.current(current);
          // A timed-out lock is dropped by whoever asks.
          if (lock && !holds(lock, caller)) {
            if (!force) return null;
            if (!mayBreak(lock, current, caller)) {
              throw forbidden(`"${current.id}" is locked by ${lock.creator}, and you may not break that lock`);
            }
          }
          return { set: {}, unset: ['lock'], events: () => [] };
        },
      },
      caller,
    );
    return written.after;
  }
}
