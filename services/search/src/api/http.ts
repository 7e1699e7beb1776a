import type { EndpointTable, Subscription } from '@cms/shared';
import { batchingLinks, callerTokens, urlOf } from '@cms/shared';
import { buildCatalogQuery } from '../domain/search-query';
import type { Catalog } from '../store/catalog';

/**
 * `@search`. Before answering it waits (bounded) until every event published
 * so far has been applied, so a search right after a write sees it
 * (addendum §6, read-your-writes).
 */
export function searchEndpoints(
  catalog: Catalog,
  subscription: Subscription,
  readYourWritesTimeoutMs: number,
): EndpointTable {
  return {
    search: {
      GET: async (ctx) => {
        const query = buildCatalogQuery(ctx.query, ctx.contextPath, callerTokens(ctx.principal));
        if (!(await subscription.waitUntilDrained(readYourWritesTimeoutMs))) {
          ctx.log.warn('catalog behind the content events; answering with what it has');
        }
        const { items, total } = await catalog.search(query);
        const self = urlOf(ctx.publicUrl, ctx.contextPath) + '/@search';
        const body: Record<string, unknown> = {
          '@id': self,
          items: items.map((entry) => ({
            '@id': urlOf(ctx.publicUrl, entry.path),
            '@type': entry.portal_type,
            description: entry.description,
            review_state: entry.review_state,
            title: entry.title,
            type_title: entry.type_title,
          })),
          items_total: total,
        };
        const batching = batchingLinks(self, ctx.request.query, query.batch, total);
        if (batching) body.batching = batching;
        return { status: 200, body };
      },
    },
  };
}
