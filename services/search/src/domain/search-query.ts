import { badRequest, clip, readBatch, type Batch, type QueryParams } from '@cms/shared';
import { depthOf, instant } from './catalog-entry';
import { indexNamed, sortFieldOf, type IndexDef } from './indexes';
import { escapeRegExp, parseTextQuery } from './text';

export interface CatalogQuery {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  batch: Batch;
}

/** `@search` parameters that are options, not indexes. */
const OPTIONS = new Set([
  'b_start',
  'b_size',
  'sort_on',
  'sort_order',
  'sort_limit',
  'metadata_fields',
  'fullobjects',
  'use_site_search_settings',
  'show_inactive',
  'expand',
]);

/** What every catalog query starts from: live entries the caller may view (see callerTokens). */
export function viewerFilter(viewerTokens: string[]): Record<string, unknown> {
  return { deleted: { $ne: true }, allowed: { $in: viewerTokens } };
}

/**
 * Translates `@search` query parameters into a store filter for a caller
 * holding `viewerTokens`. Without a
 * `path.query` the search is limited to the context and below (rule 1). An unknown index or a malformed value
 * is 400.
 */
export function buildCatalogQuery(query: QueryParams, contextPath: string, viewerTokens: string[]): CatalogQuery {
  const filter = viewerFilter(viewerTokens);
  const and: Record<string, unknown>[] = [];

  const paths = query.getAll('path.query').concat(query.getAll('path'));
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

  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (OPTIONS.has(key)) continue;
    const name = key.split('.')[0];
    if (seen.has(name)) continue;
    seen.add(name);
    const index = indexNamed(name);
    if (!index) throw badRequest(`Unknown index "${clip(name)}"`, [{ field: clip(key), message: 'no such index' }]);
    if (index.kind === 'path') continue;
    and.push(...indexClauses(name, index, query));
  }
  if (and.length) filter.$and = and;

  return { filter, sort: readSort(query), batch: readBatch(query) };
}

/** The clauses of one index's parameters: `<index>` and its dotted options (`.query`, `.range`, `.operator`). */
function indexClauses(name: string, index: IndexDef, query: QueryParams): Record<string, unknown>[] {
  const values = query.getAll(name).concat(query.getAll(`${name}.query`));
  const { field } = index;
  if (index.kind === 'text') {
    const clauses: Record<string, unknown>[] = [];
    for (const text of values) {
      const terms = parseTextQuery(text);
      if (terms.length === 0) clauses.push({ _id: { $in: [] } });
      for (const term of terms) {
        clauses.push({ [field]: term.prefix ? { $regex: `^${escapeRegExp(term.word)}` } : term.word });
      }
    }
    return clauses;
  }
  const parse = (value: string) => parseValue(name, index, value);
  const parsed = values.map(parse);
  const range = query.get(`${name}.range`);
  if (range !== undefined) {
    if (index.kind !== 'date' && index.kind !== 'int')
      throw malformed(`${name}.range`, 'a range needs a date or number index');
    const bounds = range.split(':');
    if (!bounds.every((b) => b === 'min' || b === 'max') || bounds.length > 2 || parsed.length < bounds.length) {
      throw malformed(`${name}.range`, 'min, max or min:max, with as many values');
    }
    const condition: Record<string, unknown> = {};
    bounds.forEach((bound, i) => {
      const value = bounds.length === 2 ? parsed[i] : bound === 'min' ? max(parsed) : min(parsed);
      condition[bound === 'min' ? '$gte' : '$lte'] = value;
    });
    return [{ [field]: condition }];
  }
  if (parsed.length === 0) return [];
  // An entry without the flag (written before the column existed) counts as false.
  if (index.kind === 'boolean' && parsed.length === 1 && parsed[0] === false) return [{ [field]: { $ne: true } }];
  if (query.get(`${name}.operator`) === 'and' && parsed.length > 1) return [{ [field]: { $all: parsed } }];
  return [{ [field]: parsed.length === 1 ? parsed[0] : { $in: parsed } }];
}

function parseValue(name: string, index: IndexDef, value: string): unknown {
  switch (index.kind) {
    case 'boolean': {
      const lower = value.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lower)) return true;
      if (['false', '0', 'no', 'off', ''].includes(lower)) return false;
      throw malformed(name, 'not a boolean');
    }
    case 'int': {
      const n = Number(value);
      if (!value.trim() || !Number.isFinite(n)) throw malformed(name, 'not a number');
      return n;
    }
    case 'date': {
      const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? instant(`${value}T00:00:00Z`) : instant(value);
      if (!iso || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw malformed(name, 'not a date');
      return iso;
    }
    default:
      return value;
  }
}

const min = (values: unknown[]) => values.reduce((a, b) => ((a as string) < (b as string) ? a : b));
const max = (values: unknown[]) => values.reduce((a, b) => ((a as string) > (b as string) ? a : b));

function malformed(field: string, message: string) {
  return badRequest(`Malformed value for ${clip(field)}: ${message}`, [{ field: clip(field), message }]);
}

export function normalisePath(path: string): string {
  return '/' + path.split('/').filter(Boolean).join('/');
}

function readSort(query: QueryParams): Record<string, 1 | -1> {
  return sortOf(query.getAll('sort_on'), query.get('sort_order'));
}

/** The store sort of sort indexes and an order (`ascending`, `descending` or `reverse`); unknown ones are 400. */
export function sortOf(indexes: readonly string[], order = 'ascending'): Record<string, 1 | -1> {
  if (!['ascending', 'descending', 'reverse'].includes(order)) {
    throw badRequest(`Unknown sort_order "${clip(order)}"`, [
      { field: 'sort_order', message: 'ascending, descending or reverse' },
    ]);
  }
  const direction = order === 'ascending' ? 1 : -1;
  const sort: Record<string, 1 | -1> = {};
  for (const index of indexes) {
    const field = sortFieldOf(index);
    if (!field)
      throw badRequest(`Unknown sort index "${clip(index)}"`, [{ field: 'sort_on', message: 'not a sortable index' }]);
    sort[field] = direction;
  }
  // A stable order when nothing is asked for, and between ties.
  if (!('path' in sort)) sort.path = 1;
  return sort;
}
