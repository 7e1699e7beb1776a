import {
  batchingLinks,
  notFound,
  readBatch,
  requirePermission,
  stripTypeSuffix,
  type EndpointTable,
  type QueryParam__Output,
  type RequestContext,
} from '@cms/shared';
import { fieldDefinition } from '../domain/records';
import type { Registry } from '../domain/registry';

/** Query parameters that select a batch; the canonical `@id` of a listing leaves them out. */
const BATCH_PARAMS = new Set(['b_start', 'b_size']);

function withQuery(url: string, query: readonly QueryParam__Output[]): string {
  if (query.length === 0) return url;
  return `${url}?${query.map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(p.value)}`).join('&')}`;
}

/** The registry belongs to the site: `@registry` exists on the site root only. */
function requireSiteRoot(ctx: RequestContext): void {
  if (ctx.request.context_path.length > 0)
    throw notFound(`No @registry at ${ctx.contextPath}; the registry is at the site root`);
}

/** The HTTP endpoints of the config area: `@registry` (reading and writing require cms.ManagePortal). */
export function configEndpoints(registry: Registry): EndpointTable {
  async function listing(ctx: RequestContext) {
    const batch = readBatch(ctx.query);
    const prefix = ctx.query.get('q') ?? '';
    const page = await registry.list(prefix, batch.start, batch.size);
    const url = `${ctx.publicUrl}/@registry`;
    const query = ctx.request.query;
    const batching = batchingLinks(url, query, batch, page.total);
    return {
      '@id': withQuery(
        url,
        query.filter((p) => !BATCH_PARAMS.has(stripTypeSuffix(p.key))),
      ),
      ...(batching ? { batching } : {}),
      items: page.items.map(({ record, value }) => ({
        name: record.name,
        schema: { properties: fieldDefinition(record.field, ctx.publicUrl) },
        value,
      })),
      items_total: page.total,
    };
  }

  return {
    registry: {
      GET: async (ctx) => {
        requireSiteRoot(ctx);
        requirePermission(ctx.principal, 'cms.ManagePortal');
        const [name, ...rest] = ctx.request.sub_path;
        if (name === undefined) return { status: 200, body: await listing(ctx) };
        if (rest.length) throw notFound(`No registry record named "${ctx.request.sub_path.join('/')}"`);
        return { status: 200, body: await registry.value(name) };
      },
      PATCH: async (ctx) => {
        requireSiteRoot(ctx);
        requirePermission(ctx.principal, 'cms.ManagePortal');
        if (ctx.request.sub_path.length)
          throw notFound('Registry records are written with PATCH @registry and a body mapping names to values');
        await registry.update(ctx.json());
        return { status: 204 };
      },
    },
  };
}
