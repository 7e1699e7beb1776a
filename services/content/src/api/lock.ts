/**
 * `@lock`: `POST` locks the object for the caller, `GET` shows its lock, `PATCH` refreshes it, `DELETE`
 * releases it (`force` breaks someone else's). Every answer is the Lock (addendum §5: the real `stealable`).
 */
import { z } from 'zod';
import { DEFAULT_LOCK_TIMEOUT_S, MAX_LOCK_TIMEOUT_S } from '../domain/locks';
import { callerOf } from './caller';
import { using } from './declarations';
import { renderLock } from './render';

const { endpoint, operation } = using('directory', 'locks', 'settings');

const lockBody = z
  .object({
    stealable: z.boolean().optional(),
    timeout: z.number().int().positive().max(MAX_LOCK_TIMEOUT_S).default(DEFAULT_LOCK_TIMEOUT_S),
  })
  .strict();

export const unlockBody = z.object({ force: z.boolean().optional() }).strict();

export const lock = endpoint({
  name: 'lock',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The lock on the object, or `{locked: false, stealable: true}`',
      permission: 'View',
      handle: async (call, deps) => ({ status: 200, body: await renderLock(call, call.context, deps) }),
    }),
    POST: operation({
      summary: 'Locks the object (`stealable`, default true; `timeout` in seconds, default 600)',
      permission: 'Modify portal content',
      body: lockBody,
      handle: async (call, deps) => {
        // The editing panel's `lock_on_ttw_edit` off: editors through the API do not lock what they edit; the
        // answer is the object's lock as it is (a lock taken earlier still holds until released).
        if (!(await deps.settings.current(call.requestId)).lockOnEdit) {
          return { status: 200, body: await renderLock(call, call.context, deps) };
        }
        const locked = await deps.locks.lock(call.context, call.body, callerOf(call));
        return { status: 200, body: await renderLock(call, locked, deps) };
      },
    }),
    PATCH: operation({
      summary: "Refreshes the caller's lock: its time starts again",
      permission: 'Modify portal content',
      handle: async (call, deps) => {
        const refreshed = await deps.locks.refresh(call.context, callerOf(call));
        return { status: 200, body: await renderLock(call, refreshed, deps) };
      },
    }),
    DELETE: operation({
      summary: "Releases the caller's lock; `force` breaks another's (someone else without it: unchanged)",
      permission: 'Modify portal content',
      body: unlockBody,
      handle: async (call, deps) => {
        const released = await deps.locks.unlock(call.context, call.body.force ?? false, callerOf(call));
        return { status: 200, body: await renderLock(call, released, deps) };
      },
    }),
  },
});
