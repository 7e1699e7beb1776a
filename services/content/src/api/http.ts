import { batchingLinks, callerTokens, readBatch, urlOf, type EndpointTable, type RequestContext } from '@cms/shared';
import { z } from 'zod';
import { authorize } from '../domain/access';
import { callerOf } from './caller';
import type { ContentCommands } from '../domain/content-commands';
import type { ContentRepository } from '../domain/repository';
import { serialize, type Listing } from '../domain/serialize';
import { ADDABLE_TYPES, contentType } from '../domain/types';
import type { ContentDoc } from '../domain/model';

const newContentBody = z
  .object({
    '@type': z.enum(ADDABLE_TYPES),
    id: z.string().min(1).optional(),
    title: z.string().max(1000).default(''),
    description: z.string().max(10_000).default(''),
  })
  .strict();

const changesBody = z
  .object({
    title: z.string().max(1000).optional(),
    description: z.string().max(10_000).optional(),
  })
  .strict();

/** The HTTP endpoints of the content area: the context itself (no `@` segment). */
export function contentEndpoints(commands: ContentCommands, repo: ContentRepository): EndpointTable {
  async function render(ctx: RequestContext, doc: ContentDoc, parent?: ContentDoc | null) {
    const listing = contentType(doc.portal_type).folderish ? await listChildren(ctx, doc) : null;
    return serialize(doc, parent === undefined ? await commands.parentOf(doc) : parent, listing, ctx.publicUrl);
  }

  async function listChildren(ctx: RequestContext, doc: ContentDoc): Promise<Listing> {
    const batch = readBatch(ctx.query);
    const viewer = callerTokens(ctx.principal);
    const [items, total] = await Promise.all([
      repo.children(doc._id, viewer, batch.start, batch.size),
      repo.countChildren(doc._id, viewer),
    ]);
    return {
      items,
      total,
      batching: batchingLinks(urlOf(ctx.publicUrl, doc.path ?? '/'), ctx.request.query, batch, total),
    };
  }

  return {
    '': {
      GET: async (ctx) => {
        const doc = await commands.find(ctx.contextPath, ctx.publicUrl);
        authorize(ctx.principal, 'View', doc);
        return { status: 200, body: await render(ctx, doc) };
      },
      POST: async (ctx) => {
        const input = ctx.body(newContentBody);
        const { doc, parent } = await commands.create(ctx.contextPath, input, callerOf(ctx));
        const url = urlOf(ctx.publicUrl, doc.path ?? '/');
        return { status: 201, headers: { Location: url }, body: await render(ctx, doc, parent) };
      },
      PATCH: async (ctx) => {
        const doc = await commands.update(ctx.contextPath, ctx.body(changesBody), callerOf(ctx));
        if (ctx.header('prefer') === 'return=representation') return { status: 200, body: await render(ctx, doc) };
        return { status: 204 };
      },
      DELETE: async (ctx) => {
        await commands.remove(ctx.contextPath, callerOf(ctx));
        return { status: 204 };
      },
    },
  };
}
