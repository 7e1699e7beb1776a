/**
 * Locks on content objects (`@lock`): a lock is kept on the object itself, so reading an object reads its lock
 * and every write sees the lock it is made against. A lock past its timeout is gone: nothing needs to clear it.
 */
import { randomBytes } from 'node:crypto';
import { forbidden, hasPermission, urlOf } from '@cms/shared';
import { accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import type { ContentDoc, StoredLock } from '../content/model';

export type { StoredLock };

/** The lock an editor takes (the original's `plone.locking` name in this API's namespace). */
export const STEALABLE_LOCK = 'cms.locking.stealable';
/** The lock a working-copy check-out puts on the original. */
export const CHECKOUT_LOCK = 'iterate.lock';
export const DEFAULT_LOCK_TIMEOUT_S = 600;
/** The longest lock a caller may ask for: a day (a check-out's lock has no timeout of its own). */
export const MAX_LOCK_TIMEOUT_S = 86_400;
/** What the original reports as the timeout of a lock that does not expire (2^32 - 16 seconds). */
export const NEVER_EXPIRES_S = 4_294_967_280;

export function newLock(
  creator: string,
  options: { stealable: boolean; timeout: number; name: string },
  now: Date,
): StoredLock {
  return { token: randomBytes(24).toString('base64url'), creator, created: now.toISOString(), ...options };
}

/** The object's lock, unless there is none or it has timed out. */
export function liveLock(doc: Pick<ContentDoc, 'lock'>, now: Date): StoredLock | null {
  const lock = doc.lock;
  if (!lock) return null;
  if (lock.timeout < NEVER_EXPIRES_S && Date.parse(lock.created) + lock.timeout * 1000 <= now.getTime()) return null;
  return lock;
}

/** Whether the caller holds `lock`: its creator, or anyone sending its token. */
export function holds(lock: StoredLock, caller: Caller): boolean {
  return (caller.principal?.id ?? null) === lock.creator || caller.lockToken === lock.token;
}

/** Whether the caller may remove someone else's `lock` (`DELETE @lock` with `force`). */
export function mayBreak(lock: StoredLock, doc: ContentDoc, caller: Caller): boolean {
  // A stealable lock yields to anyone who may edit the object; a check-out's lock only to site managers.
  const permission = lock.stealable ? 'Modify portal content' : 'cms.ManagePortal';
  return hasPermission(caller.principal, permission, accessOf(doc));
}

/** The 403 of a write to an object locked by someone else (addendum §4: the message says it is locked). */
export function lockedError(doc: ContentDoc, lock: StoredLock) {
  return forbidden(
    `"${doc.id}" is locked by ${lock.creator}; only the lock holder, or a request with its Lock-Token, may change it`,
  );
}

/** The write path's lock check: every caller's write to a locked object but the holder's is refused. */
export class LockCheck {
  constructor(private readonly now: () => Date = () => new Date()) {}

  check(doc: ContentDoc, caller: Caller): void {
    const lock = liveLock(doc, this.now());
    if (lock && !holds(lock, caller)) throw lockedError(doc, lock);
  }
}

/** The JSON form of an object's lock; the token only to its holder (anyone else holding it could write). */
export function lockJson(
  lock: StoredLock | null,
  caller: { principalId: string | null; lockToken?: string; publicUrl: string; creatorName?: string },
) {
  if (!lock) return { locked: false, stealable: true };
  const held = caller.principalId === lock.creator || caller.lockToken === lock.token;
  const created = new Date(lock.created);
  return {
    created: `${created.toISOString().slice(0, 19)}Z`,
    creator: lock.creator,
    creator_name: caller.creatorName ?? lock.creator,
    creator_url: urlOf(caller.publicUrl, `/author/${lock.creator}`),
    locked: true,
    name: lock.name,
    stealable: lock.stealable,
    time: created.getTime() / 1000,
    timeout: lock.timeout,
    ...(held ? { token: lock.token } : {}),
  };
}
