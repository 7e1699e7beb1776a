/** `@refresh-lock` (deprecated: specification, Versioning 1): `POST` is `PATCH @lock`. */
import { callerOf } from './caller';
import { using } from './declarations';
import { renderLock } from './render';

const { endpoint, operation } = using('directory', 'locks');

export const refreshLock = endpoint({
  name: 'refresh-lock',
  service: 'content',
  context: 'content',
  operations: {
    POST: operation({
      summary: "Deprecated: refreshes the caller's lock, as PATCH @lock",
      permission: 'Modify portal content',
      handle: async (call, deps) => {
        const refreshed = await deps.locks.refresh(call.context, callerOf(call));
        return { status: 200, body: await renderLock(call, refreshed, deps) };
      },
    }),
  },
});
