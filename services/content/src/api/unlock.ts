/** `@unlock` (deprecated: specification, Versioning 1): `POST` is `DELETE @lock`. */
import { callerOf } from './caller';
import { using } from './declarations';
import { unlockBody } from './lock';
import { renderLock } from './render';

const { endpoint, operation } = using('directory', 'locks');

export const unlock = endpoint({
  name: 'unlock',
  service: 'content',
  context: 'content',
  operations: {
    POST: operation({
      summary: "Deprecated: releases the caller's lock, as DELETE @lock",
      permission: 'Modify portal content',
      body: unlockBody,
      handle: async (call, deps) => {
        const released = await deps.locks.unlock(call.context, call.body.force ?? false, callerOf(call));
        return { status: 200, body: await renderLock(call, released, deps) };
      },
    }),
  },
});
