/**
 * `@history`: `GET` lists the object's creation, versions and transitions, newest first; `GET /<version>` is
 * the object as it was at that version; `PATCH {"version": n}` reverts to it (a new version).
 */
import { z } from 'zod';
import { callerOf } from './caller';
import { using } from './declarations';
import { RENDERING, renderContent } from './render';

const { endpoint, operation } = using(...RENDERING, 'history');

const versionParam = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const history = endpoint({
  name: 'history',
  service: 'content',
  context: 'content',
  cache: 'content',
  operations: {
    GET: operation({
      summary: 'The history of the object, or (with a version number) the object as it was then',
      paths: ['', ':version'],
      permission: 'Access previous versions',
      params: z.object({ version: versionParam.optional() }),
      handle: async (call, deps) => {
        const caller = callerOf(call);
        const { version } = call.params;
        if (version === undefined) {
          const actors = await deps.history.actorsOf(call.context);
          const described = await deps.directory.describe(actors, call.requestId);
          const names = new Map(described.map((p) => [p.id, p.title]));
          return { status: 200, body: await deps.history.list(call.context, caller, names, call.translator.translate) };
        }
        const record = await deps.history.version(call.context, version, caller);
        const body = await renderContent(call, deps.history.asOf(call.context, record), deps);
        return { status: 200, body: { ...body, version: String(record.version) } };
      },
    }),
    PATCH: operation({
      summary: 'Reverts the object to one of its versions',
      permission: 'Modify portal content',
      body: z.object({ version: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }).strict(),
      handle: async (call, deps) => {
        const reverted = await deps.history.revert(call.context, call.body.version, callerOf(call));
        return {
          status: 200,
          body: { message: `${reverted.title} has been reverted to revision ${call.body.version}.` },
        };
      },
    }),
  },
});
