import {
  requestMetadata,
  unary,
  type ContentServiceClient,
  type ContentSnapshot,
  type Logger,
  type SearchServiceHandlers,
} from '@cms/shared';
import { rebuildCatalog, type RebuildOptions } from '../store/rebuild';
import type { Catalog } from '../store/catalog';

/**
 * `Reindex`: rebuilds the catalog from the content store (addendum §6). `content`
 * gives the client when a reindex runs, so content's address may be known late.
 */
export function searchRpcs(
  catalog: Catalog,
  content: () => ContentServiceClient,
  log: Logger,
  options: RebuildOptions,
): Omit<SearchServiceHandlers, 'Handle' | 'Terms' | 'QueryCollection'> {
  return {
    Reindex: unary(log, async (_request, ctx) => {
      const snapshots = content().Scan({ page_size: 500 }, requestMetadata(ctx.requestId));
      const result = await rebuildCatalog(catalog, snapshots as AsyncIterable<ContentSnapshot>, options);
      ctx.log.info(result, 'reindex done');
      return { indexed: result.indexed, removed: result.removed };
    }),
  };
}
