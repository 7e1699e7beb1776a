/** `@workflow`: the object's state, history and the transitions the caller may take; `POST /<transition>` takes one. */
import { badRequest } from '@cms/shared';
import { z } from 'zod';
import { callerOf } from './caller';
import { using } from './declarations';

const { endpoint, operation } = using('workflow');

const dateTime = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?$/, 'expected an ISO 8601 date-time');

const transitionBody = z
  .object({
    comment: z.string().max(10_000).optional(),
    effective: dateTime.optional(),
    expires: dateTime.optional(),
    include_children: z.boolean().optional(),
  })
  .strict();

export const workflow = endpoint({
  name: 'workflow',
  service: 'content',
  context: 'content',
  cache: 'content',
  operations: {
    GET: operation({
      summary: 'The workflow status: state, history, available transitions',
      permission: 'View',
      handle: async (call, { workflow }) => ({
        status: 200,
        body: workflow.status(call.context, call.principal, call.publicUrl, call.translator.translate),
      }),
    }),
    POST: operation({
      summary: 'Takes a transition (optionally on everything inside the object the caller may change)',
      paths: ['', ':transition'],
      permission: {
        permissionOf: (call, { workflow }) => workflow.permissionFor(call.context, call.params.transition),
        why: 'each transition’s own guard permission',
      },
      params: z.object({ transition: z.string().max(100).optional() }),
      body: transitionBody,
      handle: async (call, { workflow }) => {
        const { transition } = call.params;
        if (!transition) throw badRequest('Name one transition: POST <context>/@workflow/<transition>');
        const taken = await workflow.transition(
          call.context,
          transition,
          call.body,
          callerOf(call),
          call.translator.translate,
        );
        return { status: 200, body: taken };
      },
    }),
  },
});
