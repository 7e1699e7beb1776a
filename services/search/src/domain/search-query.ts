import { badRequest, clip, readBatch, type Batch, type QueryParams } from '@cms/shared';
import { depthOf, instant } from './catalog-entry';
import { indexNamed, sortFieldOf, type IndexDef } from './indexes';
import { parseTextQuery, type TextMatch, type TextTerm } from './text';

export interface CatalogQuery {
  /** What the entries must match beyond text, in the store port's filter language. */
  filter: Record<string, unknown>;
  /** What text indexes must match, all of it (`SearchableText`, `Title`, `Description`). */
  text: TextMatch[];
  sort: Record<string, 1 | -1>;
  batch: Batch;
  /** Ranks by relevance for these `SearchableText` terms instead of `sort` (no `sort_on` given). */
  rank?: TextTerm[];
  /** At most this many results count (`sort_limit`). */
  limit?: number;
}

/** The search control panel's settings, when the search asks for them (`use_site_search_settings=1`). */
export interface SiteSearch {
  typesNotSearched: readonly string[];
  /** `relevance`, `Date` (newest first) or a sort index. */
  sortOn: string;
}

export interface QueryOptions {
  /** The time the effective range is checked against. */
  now?: Date;
  site?: SiteSearch;
}

/** Roles that see inactive content (expired or not yet effective): the reference platform's managers. */
const INACTIVE_VIEWERS = ['Manager', 'Site Administrator'];

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
  // Accepted, but what a caller sees of inactive content follows their roles alone (see viewerFilter).
  'show_inactive',
  'expand',
  // Always the caller's own (viewerFilter), whatever the query says, as on the reference platform.
  'allowedRolesAndUsers',
]);

/**
 * What every catalog query starts from: live entries the caller may view (see callerTokens) and, unless the
 * caller is a manager, only active ones (the effectiveRange rule: effective and not expired at `now`); owners
 * still see their own inactive content.
 */
export function viewerFilter(viewerTokens: string[], now = new Date()): Record<string, unknown> {
  const filter: Record<string, unknown> = { deleted: { $ne: true }, allowed: { $in: viewerTokens } };
  if (viewerTokens.some((t) => INACTIVE_VIEWERS.includes(t))) return filter;
  const owners = viewerTokens.filter((t) => t.startsWith('user:')).map((t) => t.slice('user:'.length));
  filter.$or = [activeAt(now.toISOString()), ...(owners.length ? [{ creators: { $in: owners } }] : [])];
  return filter;
}

/** Entries active at an instant: effective by then (or never set) and not expired yet. */
function activeAt(iso: string): Record<string, unknown> {
  return {
    $and: [
      { $or: [{ effective: null }, { effective: { $lte: iso } }] },
      { $or: [{ expires: null }, { expires: { $gt: iso } }] },
    ],
  };
}

/**
 * Translates `@search` query parameters into a store filter for a caller
 * holding `viewerTokens`. Without a
 * `path.query` the search is limited to the context and below (rule 1). An unknown index or a malformed value
 * is 400.
 */
export function buildCatalogQuery(
  query: QueryParams,
  contextPath: string,
  viewerTokens: string[],
  options: QueryOptions = {},
): CatalogQuery {
  const filter = viewerFilter(viewerTokens, options.now);
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

  const text: TextMatch[] = [];
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (OPTIONS.has(key)) continue;
    const name = key.split('.')[0];
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'effectiveRange') {
      and.push(...query.getAll(key).map((value) => activeAt(parseValue(name, EFFECTIVE_RANGE, value) as string)));
      continue;
    }
    const index = indexNamed(name);
    if (!index) throw badRequest(`Unknown index "${clip(name)}"`, [{ field: clip(key), message: 'no such index' }]);
    if (index.kind === 'path') continue;
    if (index.kind === 'text') {
      const values = query.getAll(name).concat(query.getAll(`${name}.query`));
      text.push(...values.map((value) => ({ field: index.field, terms: parseTextQuery(value) })));
      continue;
    }
    and.push(...indexClauses(name, index, query));
  }
  const site = options.site;
  if (site?.typesNotSearched.length) and.push({ portal_type: { $nin: [...site.typesNotSearched] } });
  if (and.length) filter.$and = and;

  const result: CatalogQuery = { filter, text, sort: readSort(query, site), batch: readBatch(query) };
  const limit = readSortLimit(query);
  if (limit !== undefined) result.limit = limit;
  // Relevance when no order is asked for (nor set by the site's search settings).
  const ranked = query.getAll('sort_on').length === 0 && (!site || site.sortOn === 'relevance');
  if (ranked) {
    const terms = text.filter((match) => match.field === 'words').flatMap((match) => match.terms);
    if (terms.length) result.rank = terms;
  }
  return result;
}

/** `effectiveRange=<date>`: what is active at that date. */
const EFFECTIVE_RANGE: IndexDef = { field: 'effective', kind: 'date' };

/** `sort_limit`: a positive integer. */
function readSortLimit(query: QueryParams): number | undefined {
  const raw = query.get('sort_limit');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!raw.trim() || !Number.isInteger(n) || n < 1) throw malformed('sort_limit', 'not a positive integer');
  return n;
}

/** The clauses of one index's parameters: `<index>` and its dotted options (`.query`, `.range`, `.operator`). */
function indexClauses(name: string, index: IndexDef, query: QueryParams): Record<string, unknown>[] {
  const values = query.getAll(name).concat(query.getAll(`${name}.query`));
  const { field } = index;
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

function readSort(query: QueryParams, site?: SiteSearch): Record<string, 1 | -1> {
  const sortOn = query.getAll('sort_on');
  if (sortOn.length === 0 && site && site.sortOn !== 'relevance') {
    // The site's default order; `Date` is the newest first, as the search form shows it.
    if (site.sortOn === 'Date') return sortOf(['effective'], 'descending');
    if (sortFieldOf(site.sortOn)) return sortOf([site.sortOn], query.get('sort_order'));
  }
  return sortOf(sortOn, query.get('sort_order'));
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
