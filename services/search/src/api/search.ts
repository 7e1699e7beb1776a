/**
 * `@search`. Before answering it waits (bounded) until every write acknowledged so far is in the catalog, so a
 * search right after a write sees it, or says that it cannot (addendum §6, read-your-writes.ts).
 */
import { batchingLinks, callerTokens, flagValue, urlOf } from '@cms/shared';
import { requestedColumns } from '../domain/metadata';
import { buildCatalogQuery } from '../domain/search-query';
import { endpoint, operation } from './declarations';
import { freshnessHeaders } from './read-your-writes';
import { resultItems } from './results';

export const search = endpoint({
  name: 'search',
  service: 'search',
  context: 'content',
  cache: 'listing',
  operations: {
    GET: operation({
      summary: 'Catalog search below the context; parameters are catalog indexes and options',
      permission: 'View',
      handle: async (call, { catalog, readYourWrites, content, comments, siteSearch }) => {
        const useSite = flagValue(call.queryParams.get('use_site_search_settings'));
        const site = useSite ? await siteSearch.current(call.requestId) : undefined;
        // Index names are open-ended: the catalog query reads the parameters as sent, and validates them.
        const query = buildCatalogQuery(call.queryParams, call.contextPath, callerTokens(call.principal), { site });
        const columns = requestedColumns(call.queryParams.getList('metadata_fields'));
        const fullobjects =
          call.queryParams.has('fullobjects') && flagValue(call.queryParams.get('fullobjects') || true);
        const freshness = await readYourWrites.check(call.requestId, call.log);
        const { items, total } = await catalog.search(query);
        const self = urlOf(call.publicUrl, call.contextPath) + '/@search';
        const body: Record<string, unknown> = {
          '@id': self,
          items: await resultItems(
            items,
            {
              fullobjects,
              columns,
              principal: call.principal,
              publicUrl: call.publicUrl,
              requestId: call.requestId,
            },
            { content, comments },
          ),
          items_total: total,
        };
        const batching = batchingLinks(self, call.request.query, query.batch, total);
        if (batching) body.batching = batching;
        return { status: 200, body, headers: freshnessHeaders(freshness) };
      },
    }),
  },
});
