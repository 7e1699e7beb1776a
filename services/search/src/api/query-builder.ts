/**
 * A query-builder search (`@querystring-search`, Collections' results): the criteria as catalog clauses, for
 * the caller, sorted, counted up to `limit`, one batch.
 */
import { callerTokens, type Principal__Output } from '@cms/shared';
import type { CatalogEntry } from '../domain/catalog-entry';
import { criteriaConditions, type Criterion } from '../domain/criteria';
import { sortOf, viewerFilter, type CatalogQuery } from '../domain/search-query';
import type { Catalog } from '../store/catalog';

/** `limit`'s default: at most this many results count (addendum §8). */
export const DEFAULT_LIMIT = 1000;

export interface QueryBuilderSearch {
  criteria: readonly Criterion[];
  contextPath: string;
  sortOn: string | null;
  sortOrder: string;
  limit: number;
  start: number;
  size: number;
  principal: Principal__Output | null;
}

export async function queryBuilderSearch(
  catalog: Catalog,
  q: QueryBuilderSearch,
): Promise<{ items: CatalogEntry[]; total: number }> {
  const { clauses, text } = await criteriaConditions(q.criteria, {
    contextPath: q.contextPath,
    principalId: q.principal?.id || null,
    now: new Date(),
    pathOfUid: (uid) => catalog.pathOf(uid),
  });
  const filter = viewerFilter(callerTokens(q.principal));
  if (clauses.length) filter.$and = clauses;
  const sort = sortOf(q.sortOn ? [q.sortOn] : [], q.sortOrder);
  const query: CatalogQuery = { filter, text, sort, batch: { start: q.start, size: q.size } };
  // Relevance, as `@search` ranks, when no sort index is asked for.
  const terms = text.filter((match) => match.field === 'words').flatMap((match) => match.terms);
  if (!q.sortOn && terms.length) query.rank = terms;
  return catalog.search(query, q.limit);
}
