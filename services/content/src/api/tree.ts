import type { EndpointTable } from '@cms/shared';
import { z } from 'zod';
import type { ContentCommands } from '../domain/content-commands';
import type { TreeCommands } from '../domain/tree-commands';
import { callerOf } from './caller';

/** `source`: one URL (or site path, or UID) or a list of them. */
const relocationBody = z
  .object({
    source: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(1000)]),
  })
  .strict();

/** `@copy` and `@move`: POST to the target folder; 200 with `[{source, target}]`. */
export function treeEndpoints(content: ContentCommands, tree: TreeCommands): EndpointTable {
  async function relocate(kind: 'copy' | 'move', ctx: Parameters<NonNullable<EndpointTable[string]['POST']>>[0]) {
    const { source } = ctx.body(relocationBody);
    const target = await content.find(ctx.contextPath, ctx.publicUrl);
    const sources = Array.isArray(source) ? source : [source];
    const caller = callerOf(ctx);
    const body = kind === 'copy' ? await tree.copy(target, sources, caller) : await tree.move(target, sources, caller);
    return { status: 200, body };
  }
  return {
    copy: { POST: (ctx) => relocate('copy', ctx) },
    move: { POST: (ctx) => relocate('move', ctx) },
  };
}
