import {
  AppError,
  callUnary,
  createClient,
  protos,
  type Principal__Output,
  type SearchServiceClient,
} from '@cms/shared';

/** One result of a Collection's query, as search answers it. */
export interface CollectionItem {
  path: string;
  portal_type: string;
  title: string;
  description: string;
  review_state?: string;
  type_title: string;
}

export interface CollectionQuery {
  /** The Collection's `query` criteria, as stored. */
  query: unknown;
  contextPath: string;
  sortOn: string | null;
  sortReversed: boolean;
  limit: number;
  start: number;
  size: number;
  principal: Principal__Output | null;
  requestId: string;
}

/** A Collection's results: the search service answers its query (`SearchService.QueryCollection`). */
export interface CollectionResults {
  results(query: CollectionQuery): Promise<{ items: CollectionItem[]; items_total: number }>;
}

export function searchCollectionResults(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
): CollectionResults & { close(): void } {
  let client: SearchServiceClient | undefined;
  const search = () => (client ??= createClient(protos().search.SearchService, address, maxMessageBytes));
  return {
    async results(q) {
      const request = {
        query_json: JSON.stringify(q.query ?? []),
        context_path: q.contextPath,
        sort_on: q.sortOn ?? '',
        sort_reversed: q.sortReversed,
        limit: q.limit,
        b_start: q.start,
        b_size: q.size,
        principal: q.principal ?? undefined,
        request_id: q.requestId,
      };
      try {
        const response = await callUnary<{ items: CollectionItem[]; items_total: number }>(
          (md, o, cb) => search().QueryCollection(request, md, o, cb),
          { requestId: q.requestId, timeoutMs },
        );
        return { items: response.items, items_total: response.items_total };
      } catch (error) {
        // A stored query search cannot read lists nothing: the Collection must still open, to be corrected.
        if (error instanceof AppError && error.type === 'BadRequest') return { items: [], items_total: 0 };
        throw error;
      }
    },
    close: () => client?.close(),
  };
}
