import type { EndpointTable } from '@cms/shared';
import { z } from 'zod';
import type { ContentCommands } from '../domain/content-commands';
import type { SharingCommands } from '../domain/sharing-commands';
import { callerOf } from './caller';

const sharingBody = z
  .object({
    entries: z
      .array(
        z.object({
          id: z.string().min(1),
          type: z.enum(['user', 'group']).optional(),
          roles: z.record(z.boolean()),
        }),
      )
      .default([]),
    inherit: z.boolean().optional(),
  })
  .strict();

export function sharingEndpoints(content: ContentCommands, sharing: SharingCommands): EndpointTable {
  return {
    sharing: {
      GET: async (ctx) => {
        const doc = await content.find(ctx.contextPath, ctx.publicUrl);
        return { status: 200, body: await sharing.read(doc, ctx.query.get('search') || undefined, callerOf(ctx)) };
      },
      POST: async (ctx) => {
        const input = ctx.body(sharingBody);
        const doc = await content.find(ctx.contextPath, ctx.publicUrl);
        await sharing.update(doc, input, callerOf(ctx));
        return { status: 204 };
      },
    },
  };
}
