/** `@sharing`: who holds which local roles on the object (`search` adds matching principals), and granting them. */
import { param } from '@cms/shared';
import { z } from 'zod';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('sharing');

const sharingBody = z
  .object({
    entries: z
      .array(
        z.object({
          id: z.string().min(1).max(200),
          type: z.enum(['user', 'group']).optional(),
          roles: z.record(z.string().max(100), z.boolean()),
        }),
      )
      .max(1000)
      .default([]),
    inherit: z.boolean().optional(),
  })
  .strict();

export const sharing = endpoint({
  name: 'sharing',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The sharing form: principals with their local roles here',
      permission: 'Change local roles',
      query: z.object({ search: param.string().optional() }),
      handle: async (call, { sharing }) => ({
        status: 200,
        body: await sharing.read(call.context, call.query.search || undefined, callerOf(call)),
      }),
    }),
    POST: operation({
      summary: 'Grants and revokes local roles; `inherit` switches inheritance from above',
      permission: 'Change local roles',
      body: sharingBody,
      handle: async (call, { sharing }) => {
        await sharing.update(call.context, call.body, callerOf(call));
        return { status: 204 };
      },
    }),
  },
});
