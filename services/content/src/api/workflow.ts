import { badRequest, type EndpointTable } from '@cms/shared';
import { z } from 'zod';
import type { ContentCommands } from '../domain/content-commands';
import type { WorkflowCommands } from '../domain/workflow-commands';
import { callerOf } from './caller';

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

export function workflowEndpoints(content: ContentCommands, workflow: WorkflowCommands): EndpointTable {
  return {
    workflow: {
      GET: async (ctx) => {
        const doc = await content.find(ctx.contextPath, ctx.publicUrl);
        return { status: 200, body: workflow.status(doc, ctx.principal, ctx.publicUrl) };
      },
      POST: async (ctx) => {
        const [transition, ...rest] = ctx.request.sub_path;
        if (!transition || rest.length) throw badRequest('Name one transition: POST <context>/@workflow/<transition>');
        const input = ctx.body(transitionBody);
        const doc = await content.find(ctx.contextPath, ctx.publicUrl);
        return { status: 200, body: await workflow.transition(doc, transition, input, callerOf(ctx)) };
      },
    },
  };
}
