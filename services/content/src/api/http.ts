import {
  badRequest,
  batchingLinks,
  callerTokens,
  createSchema,
  findContentType,
  patchSchema,
  readBatch,
  urlOf,
  validationError,
  type EndpointTable,
  type RequestContext,
} from '@cms/shared';
import { z } from 'zod';
import { authorize, mayHere } from '../domain/access';
import type { ContentCommands } from '../domain/content-commands';
import type { ContentDoc } from '../domain/model';
import type { ContentRepository } from '../domain/repository';
import { serialize, type Listing } from '../domain/serialize';
import { orderingSchema, sortSchema, type TreeCommands } from '../domain/tree-commands';
import { contentType } from '../domain/types';
import { callerOf } from './caller';
import type { ComponentExpander } from './components';

/** What a POST must name before its body can be checked against a type. */
const typeNamed = z.object({ '@type': z.string() }).passthrough();

/** Members of a folder PATCH that re-order its items instead of changing fields. */
const treeMembers = z.object({ ordering: orderingSchema.optional(), sort: sortSchema.optional() });

/** The HTTP endpoints of the content area: the context itself (no `@` segment). */
export function contentEndpoints(
  commands: ContentCommands,
  repo: ContentRepository,
  tree: TreeCommands,
  components: ComponentExpander,
): EndpointTable {
  async function render(ctx: RequestContext, doc: ContentDoc, knownParent?: ContentDoc | null) {
    const type = contentType(doc.portal_type);
    const parent = knownParent === undefined ? await commands.parentOf(doc) : knownParent;
    const [listing, neighbours, related, expanded] = await Promise.all([
      type.folderish ? listChildren(ctx, doc) : null,
      neighboursOf(ctx, doc, parent),
      relatedOf(ctx, doc),
      components.componentsOf(ctx, doc),
    ]);
    const body = serialize(doc, { publicUrl: ctx.publicUrl, parent, listing, neighbours, related });
    return { '@components': expanded, ...body };
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
      metadataFields: ctx.query.getList('metadata_fields'),
    };
  }

  /** The neighbours the caller may see, only where the parent switched next/previous navigation on. */
  async function neighboursOf(ctx: RequestContext, doc: ContentDoc, parent: ContentDoc | null) {
    const enabled =
      parent !== null &&
      contentType(parent.portal_type).behaviors.includes('cms.nextpreviousenabled') &&
      parent.fields?.nextPreviousEnabled === true;
    if (!enabled || !doc.parent_uid) return null;
    const viewer = callerTokens(ctx.principal);
    const [previous, next] = await Promise.all([
      repo.sibling(doc.parent_uid, doc.position, 'previous', viewer),
      repo.sibling(doc.parent_uid, doc.position, 'next', viewer),
    ]);
    return { previous, next };
  }

  /** Related objects the caller may view, per relation field. */
  async function relatedOf(ctx: RequestContext, doc: ContentDoc): Promise<Record<string, ContentDoc[]>> {
    const relationFields = contentType(doc.portal_type).fields.filter((f) => f.kind === 'relationlist');
    const entries = await Promise.all(
      relationFields.map(async (field) => {
        const found = await commands.related(doc, field.name);
        const visible = found.filter((d) => mayHere(ctx.principal, 'View', d));
        return [field.name, visible] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  return {
    '': {
      GET: async (ctx) => {
        const doc = await commands.find(ctx.contextPath, ctx.publicUrl);
        authorize(ctx.principal, 'View', doc);
        return { status: 200, body: await render(ctx, doc) };
      },
      POST: async (ctx) => {
        const named = ctx.body(typeNamed);
        const type = findContentType(named['@type']);
        if (!type?.addable) {
          const reason = type ? 'cannot be added by users' : 'unknown content type';
          throw badRequest(`Content type "${named['@type']}": ${reason}`, [{ field: '@type', message: reason }]);
        }
        const values = ctx.body(createSchema(type));
        const { doc, parent } = await commands.create(ctx.contextPath, type, values, callerOf(ctx));
        const url = urlOf(ctx.publicUrl, doc.path ?? '/');
        return { status: 201, headers: { Location: url }, body: await render(ctx, doc, parent) };
      },
      PATCH: async (ctx) => {
        const body = ctx.json();
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw badRequest('The body must be a JSON object', [{ field: '(body)', message: 'not a JSON object' }]);
        }
        const { ordering, sort, ...fields } = body as Record<string, unknown>;
        const doc = await commands.find(ctx.contextPath, ctx.publicUrl);
        // Every part is checked before anything is written, and all their errors are reported together.
        const order = treeMembers.safeParse({ ordering, sort });
        const values = patchSchema(contentType(doc.portal_type)).safeParse(fields);
        const issues = [...(order.success ? [] : order.error.issues), ...(values.success ? [] : values.error.issues)];
        if (issues.length || !order.success || !values.success) throw validationError(new z.ZodError(issues));

        const caller = callerOf(ctx);
        authorize(caller.principal, 'Modify portal content', doc);
        if (order.data.ordering || order.data.sort) await tree.order(doc, order.data, caller);
        const newId = values.data.id;
        let current = doc;
        if (typeof newId === 'string' && newId !== doc.id) current = await tree.rename(doc, newId, caller);
        current = await commands.update(current, values.data, caller);
        if (ctx.header('prefer')?.includes('return=representation')) {
          return { status: 200, body: await render(ctx, current) };
        }
        return { status: 204 };
      },
      DELETE: async (ctx) => {
        await commands.remove(ctx.contextPath, callerOf(ctx));
        return { status: 204 };
      },
    },
  };
}
