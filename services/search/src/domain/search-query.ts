import { badRequest, readBatch, type Batch, type QueryParams } from '@cms/shared';
import { depthOf } from './catalog-entry';
import { escapeRegExp, parseTextQuery } from './text';

/** Catalog sort indexes and the entry field each sorts on. */
const SORT_FIELDS: Readonly<Record<string, string>> = {
  path: 'path',
  sortable_title: 'sortable_title',
  getId: 'id',
  id: 'id',
  created: 'created',
  modified: 'modified',
  getObjPositionInParent: 'position',
  portal_type: 'portal_type',
  review_state: 'review_state',
};

/** Field filters: query parameter → entry field; repeated values match any. */
const FIELD_FILTERS: Readonly<Record<string, string>> = {
  portal_type: 'portal_type',
  review_state: 'review_state',
  UID: '_id',
  getId: 'id',
  Creator: 'creators',
};

export interface CatalogQuery {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  batch: Batch;
}

/**
 * Translates `@search` query parameters into a store filter for a caller
 * holding `viewerTokens`. Without a
 * `path.query` the search is limited to the context and below (rule 1).
 */
export function buildCatalogQuery(query: QueryParams, contextPath: string, viewerTokens: string[]): CatalogQuery {
  // Only what the caller may view (see callerTokens).
  const filter: Record<string, unknown> = { deleted: { $ne: true }, allowed: { $in: viewerTokens } };
  const and: Record<string, unknown>[] = [];

  const paths = query.getAll('path.query');
  const depthRaw = query.get('path.depth');
  const depth = depthRaw === undefined ? undefined : Number(depthRaw);
  if (depthRaw !== undefined && (!Number.isInteger(depth) || depth! < 0)) {
    throw badRequest('path.depth must be a non-negative integer', [
      { field: 'path.depth', message: 'not a non-negative integer' },
    ]);
  }
  const roots = (paths.length ? paths : [contextPath]).map(normalisePath);
  const pathClauses = roots.map((root) => {
    const clause: Record<string, unknown> = { path_parents: root };
    if (depth !== undefined) {
      const base = depthOf(root);
      // Depth 0 is the object itself; depth n is up to n levels below it, without it.
      clause.depth = depth === 0 ? base : { $gt: base, $lte: base + depth };
    }
    return clause;
  });
  if (pathClauses.length === 1) Object.assign(filter, pathClauses[0]);
  else and.push({ $or: pathClauses });

  const text = query.get('SearchableText');
  if (text !== undefined) {
    const terms = parseTextQuery(text);
    if (terms.length === 0) filter._id = { $in: [] };
    for (const term of terms) {
      and.push({ words: term.prefix ? { $regex: `^${escapeRegExp(term.word)}` } : term.word });
    }
  }

  for (const [param, field] of Object.entries(FIELD_FILTERS)) {
    const values = query.getAll(param);
    if (values.length === 1) and.push({ [field]: values[0] });
    else if (values.length > 1) and.push({ [field]: { $in: values } });
  }
  if (and.length) filter.$and = and;

  return { filter, sort: readSort(query), batch: readBatch(query) };
}

function normalisePath(path: string): string {
  const trimmed = '/' + path.split('/').filter(Boolean).join('/');
  return trimmed;
}

function readSort(query: QueryParams): Record<string, 1 | -1> {
  const order = query.get('sort_order') ?? 'ascending';
  if (!['ascending', 'descending', 'reverse'].includes(order)) {
    throw badRequest(`Unknown sort_order "${order}"`, [
      { field: 'sort_order', message: 'ascending, descending or reverse' },
    ]);
  }
  const direction = order === 'ascending' ? 1 : -1;
  const sort: Record<string, 1 | -1> = {};
  for (const index of query.getAll('sort_on')) {
    const field = SORT_FIELDS[index];
    if (!field)
      throw badRequest(`Unknown sort index "${index}"`, [{ field: 'sort_on', message: 'not a sortable index' }]);
    sort[field] = direction;
  }
  // A stable order when nothing is asked for, and between ties.
  if (!('path' in sort)) sort.path = 1;
  return sort;
}
