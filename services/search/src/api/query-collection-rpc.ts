/** `QueryCollection`: a Collection's results for content's `GET` of it, as the caller may see them. */
import {
  badRequest,
  DEFAULT_BATCH_SIZE,
  unary,
  type Logger,
  type Principal__Output,
  type SearchServiceHandlers,
} from '@cms/shared';
import { z } from 'zod';
import { sortFieldOf } from '../domain/indexes';
import type { Catalog } from '../store/catalog';
import { DEFAULT_LIMIT, queryBuilderSearch } from './query-builder';
import type { ReadYourWrites } from './read-your-writes';

const criteria = z
  .array(z.object({ i: z.string().max(200), o: z.string().max(200), v: z.unknown().optional() }))
  .max(100);

interface QueryCollectionInput {
  query_json: string;
  context_path: string;
  sort_on: string;
  sort_reversed: boolean;
  limit: number;
  b_start: number;
  b_size: number;
  principal?: Principal__Output | null;
}

export function queryCollectionRpc(
  catalog: Catalog,
  log: Logger,
  options: { readYourWrites: Pick<ReadYourWrites, 'check'> },
): Pick<SearchServiceHandlers, 'QueryCollection'> {
  return {
    QueryCollection: unary(log, async (request: QueryCollectionInput, ctx) => {
      let parsed: z.infer<typeof criteria>;
      try {
        parsed = criteria.parse(JSON.parse(request.query_json || '[]'));
      } catch {
        throw badRequest('The Collection query is not a list of criteria {i, o, v}');
      }
      // A Collection without criteria lists nothing (the query builder refuses an empty query).
      if (parsed.length === 0) return { items: [], items_total: 0 };
      await options.readYourWrites.check(ctx.requestId, ctx.log);
      const { items, total } = await queryBuilderSearch(catalog, {
        criteria: parsed,
        contextPath: request.context_path || '/',
        // A Collection's stored sort index may name one the catalog does not sort on: then it is unsorted.
        sortOn: sortFieldOf(request.sort_on) ? request.sort_on : null,
        sortOrder: request.sort_reversed ? 'descending' : 'ascending',
        limit: request.limit || DEFAULT_LIMIT,
        start: request.b_start,
        size: request.b_size || DEFAULT_BATCH_SIZE,
        principal: request.principal ?? null,
      });
      return {
        items: items.map((e) => ({
          path: e.path,
          portal_type: e.portal_type,
          title: e.title,
          description: e.description,
          review_state: e.review_state ?? undefined,
          type_title: e.type_title,
        })),
        items_total: total,
      };
    }),
  };
}
