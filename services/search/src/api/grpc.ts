import {
  requestMetadata,
  unary,
  type ContentServiceClient,
  type ContentSnapshot,
  type DiscussionServiceClient,
  type Logger,
  type SearchServiceHandlers,
} from '@cms/shared';
import type { CommentRecord } from '../domain/comment-entry';
import { rebuildCatalog, type RebuildOptions } from '../store/rebuild';
import type { Catalog } from '../store/catalog';

/**
 * `Reindex`: rebuilds the catalog from the content store and the discussion store (addendum §6). The clients are
 * made when a reindex runs, so their addresses may be known late.
 */
export function searchRpcs(
  catalog: Catalog,
  content: () => ContentServiceClient,
  discussion: () => DiscussionServiceClient,
  log: Logger,
  options: RebuildOptions,
): Omit<SearchServiceHandlers, 'Handle' | 'Terms' | 'QueryCollection'> {
  return {
    Reindex: unary(log, async (_request, ctx) => {
      const snapshots = content().Scan({ page_size: 500 }, requestMetadata(ctx.requestId));
      // Opened once the content scan is done: a comment added meanwhile is found, on content the scan saw.
      const comments = () => discussion().ScanComments({ page_size: 500 }, requestMetadata(ctx.requestId));
      const result = await rebuildCatalog(
        catalog,
        snapshots as AsyncIterable<ContentSnapshot>,
        comments as () => AsyncIterable<CommentRecord>,
        options,
      );
      ctx.log.info(result, 'reindex done');
      return { indexed: result.indexed, removed: result.removed };
    }),
  };
}
