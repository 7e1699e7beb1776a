import {
  requestMetadata,
  unary,
  type ContentRecord__Output,
  type ContentServiceClient,
  type Logger,
  type SearchServiceHandlers,
} from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import type { Catalog } from '../store/catalog';

/** `Reindex`: rebuilds the catalog from the content store (addendum §6). */
export function searchRpcs(
  catalog: Catalog,
  content: ContentServiceClient,
  log: Logger,
): Omit<SearchServiceHandlers, 'Handle'> {
  return {
    Reindex: unary(log, async (_request, ctx) => {
      const startedAt = new Date().toISOString();
      const seen = new Set<string>();
      const records = content.Scan({ page_size: 500 }, requestMetadata(ctx.requestId));
      for await (const record of records as AsyncIterable<ContentRecord__Output>) {
        seen.add(record.uid);
        // Version-guarded like an event, so a newer event applied meanwhile is kept.
        await catalog.put(
          entryFrom(
            {
              ...record,
              review_state: record.review_state ?? null,
              effective: record.effective ?? null,
              expires: record.expires ?? null,
            },
            new Date().toISOString(),
          ),
        );
      }
      const removed = await catalog.removeStale(seen, startedAt);
      ctx.log.info({ indexed: seen.size, removed }, 'reindex done');
      return { indexed: seen.size, removed };
    }),
  };
}
