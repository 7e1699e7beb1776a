import {
  requestMetadata,
  unary,
  type ContentServiceClient,
  type ContentSnapshot,
  type Logger,
  type SearchServiceHandlers,
} from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import type { Catalog } from '../store/catalog';

/**
 * `Reindex`: rebuilds the catalog from the content store (addendum §6). `content`
 * gives the client when a reindex runs, so content's address may be known late.
 */
export function searchRpcs(
  catalog: Catalog,
  content: () => ContentServiceClient,
  log: Logger,
): Omit<SearchServiceHandlers, 'Handle'> {
  return {
    Reindex: unary(log, async (_request, ctx) => {
      const startedAt = new Date().toISOString();
      const seen = new Set<string>();
      const snapshots = content().Scan({ page_size: 500 }, requestMetadata(ctx.requestId));
      for await (const snapshot of snapshots as AsyncIterable<ContentSnapshot>) {
        seen.add(snapshot.uid);
        // Version-guarded like an event, so a newer event applied meanwhile is kept.
        await catalog.put(entryFrom(snapshot, new Date().toISOString()));
      }
      const removed = await catalog.removeStale(seen, startedAt);
      ctx.log.info({ indexed: seen.size, removed }, 'reindex done');
      return { indexed: seen.size, removed };
    }),
  };
}
