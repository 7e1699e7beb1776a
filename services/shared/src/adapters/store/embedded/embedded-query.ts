/**
 * Fast paths of the embedded engine's reads, for the filters and sorts its callers use most (the catalog's, at
 * 100,000 entries): a filter compiled to a plain predicate (MongoDB's semantics for the forms below, checked
 * against mingo by test/store/embedded-query.test.ts), candidates taken from the smallest usable index, and a
 * sorted page read by walking the sort field's index in order until the page is full, instead of matching,
 * copying and sorting every match. Anything outside these forms returns undefined and the caller takes the
 * general path (NeDB's candidates and matcher, mingo for the rest).
 *
 * Forms: top-level fields without dots; `$and`/`$or` of such filters; a field equal to a string, a finite number,
 * a boolean or null; `$eq`, `$ne`, `$in`, `$nin` of those; `$gt`, `$gte`, `$lt`, `$lte` of a string or a number;
 * `$exists`; `$regex` with a string pattern and no options. A stored value of any kind is matched exactly (an
 * array when one of its elements matches, as in MongoDB; a subdocument, a date or a nested array equals none of
 * those operands and is in no range of a string or number). Sorting takes only missing, null, numbers and strings.
 */
import type { Document, Filter, SortSpec } from '../../../ports/store';

export type Predicate = (doc: Document) => boolean;

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/** A field name the fast path reads directly (no dotted path, no operator, nothing inherited). */
function isFieldName(key: string): boolean {
  return key.length > 0 && !key.includes('.') && !key.startsWith('$') && key !== '__proto__';
}

/** `{field: v}` for a scalar or null `v`: equal, or an array holding it; null also matches a missing field. */
function equals(value: unknown, wanted: Scalar): boolean {
  if (wanted === null) {
    if (value === null || value === undefined) return true;
    return Array.isArray(value) && value.includes(null);
  }
  if (value === wanted) return true;
  return Array.isArray(value) && value.includes(wanted);
}

type Compare = '$gt' | '$gte' | '$lt' | '$lte';

function inRange(value: unknown, op: Compare, bound: string | number): boolean {
  const one = (v: unknown): boolean => {
    if (typeof v !== typeof bound) return false;
    const x = v as string | number;
    switch (op) {
      case '$gt':
        return x > bound;
      case '$gte':
        return x >= bound;
      case '$lt':
        return x < bound;
      case '$lte':
        return x <= bound;
    }
  };
  return Array.isArray(value) ? value.some(one) : one(value);
}

/** One operator of a field condition, or undefined when outside the forms. */
function compileOperator(field: string, op: string, arg: unknown): Predicate | undefined {
  switch (op) {
    case '$eq':
      return isScalar(arg) ? (doc) => equals(doc[field], arg) : undefined;
    case '$ne':
      return isScalar(arg) ? (doc) => !equals(doc[field], arg) : undefined;
    case '$in':
    case '$nin': {
      if (!Array.isArray(arg) || !arg.every(isScalar)) return undefined;
      const wanted = arg as Scalar[];
      const hasNull = wanted.includes(null);
      const set = new Set<unknown>(wanted.filter((v) => v !== null));
      const any = (doc: Document): boolean => {
        const value = doc[field];
        if (Array.isArray(value)) return value.some((v) => set.has(v)) || (hasNull && value.includes(null));
        if (value === null || value === undefined) return hasNull;
        return set.has(value);
      };
      return op === '$in' ? any : (doc) => !any(doc);
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof arg === 'string' || (typeof arg === 'number' && Number.isFinite(arg))
        ? (doc) => inRange(doc[field], op, arg)
        : undefined;
    case '$exists':
      return typeof arg === 'boolean' ? (doc) => (doc[field] !== undefined) === arg : undefined;
    default:
      return undefined;
  }
}

function compileField(field: string, condition: unknown): Predicate | undefined {
  if (isScalar(condition)) return (doc) => equals(doc[field], condition);
  if (!isPlain(condition)) return undefined;
  const entries = Object.entries(condition);
  if (entries.length === 0) return undefined;
  const parts: Predicate[] = [];
  if ('$regex' in condition) {
    const { $regex: pattern, ...rest } = condition;
    if (typeof pattern !== 'string' || '$options' in rest) return undefined;
    const regex = new RegExp(pattern);
    parts.push((doc) => {
      const value = doc[field];
      return Array.isArray(value)
        ? value.some((v) => typeof v === 'string' && regex.test(v))
        : typeof value === 'string' && regex.test(value);
    });
    for (const [op, arg] of Object.entries(rest)) {
      const part = compileOperator(field, op, arg);
      if (!part) return undefined;
      parts.push(part);
    }
  } else {
    for (const [op, arg] of entries) {
      const part = compileOperator(field, op, arg);
      if (!part) return undefined;
      parts.push(part);
    }
  }
  return all(parts);
}

function all(parts: Predicate[]): Predicate {
  if (parts.length === 1) return parts[0]!;
  return (doc) => {
    for (const part of parts) if (!part(doc)) return false;
    return true;
  };
}

/**
 * The filter as a predicate over a stored document, or undefined when it is outside the forms above. `implied`:
 * a condition of the filter's top level (through `$and`) every document tested is known to meet (the index its
 * candidates came from), left out of the predicate.
 */
export function compileFilter(filter: Filter, implied?: Implied): Predicate | undefined {
  const compile = (node: unknown, topLevel: boolean): Predicate | undefined => {
    if (!isPlain(node)) return undefined;
    const parts: Predicate[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) return undefined;
        const subs = value.map((sub: unknown) => compile(sub, topLevel && key === '$and'));
        if (subs.some((s) => s === undefined)) return undefined;
        const branches = subs as Predicate[];
        parts.push(
          key === '$and'
            ? all(branches)
            : (doc) => {
                for (const branch of branches) if (branch(doc)) return true;
                return false;
              },
        );
        continue;
      }
      if (!isFieldName(key)) return undefined;
      if (topLevel && implied && key === implied.field && value === implied.condition) continue;
      const part = compileField(key, value);
      if (!part) return undefined;
      parts.push(part);
    }
    return parts.length === 0 ? () => true : all(parts);
  };
  return compile(filter, true);
}

/** A top-level condition (`field: condition`, the very value of the filter) that candidates are known to meet. */
export interface Implied {
  field: string;
  condition: unknown;
}

// ---------------------------------------------------------------------------
// Candidates
// ---------------------------------------------------------------------------

/** What the fast path reads of NeDB's index (lib/indexes.js) and its AVL tree (binary-search-tree). */
export interface IndexView {
  fieldName: string;
  sparse: boolean;
  tree: { tree: TreeNode };
}

export interface TreeNode {
  key?: unknown;
  data: Document[];
  left: TreeNode | null;
  right: TreeNode | null;
}

/** `key: value` conditions of the filter's top level (through `$and`), as candidate sources. */
function topLevelConditions(filter: Filter, into: [string, unknown][] = []): [string, unknown][] {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const sub of value) if (isPlain(sub)) topLevelConditions(sub, into);
    } else if (isFieldName(key)) {
      into.push([key, value]);
    }
  }
  return into;
}

function search(index: IndexView, key: Scalar): Document[] {
  let node: TreeNode | null = index.tree.tree;
  if (!node || !Object.prototype.hasOwnProperty.call(node, 'key')) return [];
  while (node) {
    const order = compareKeys(key, node.key);
    if (order === 0) return node.data;
    node = order < 0 ? node.left : node.right;
  }
  return [];
}

/**
 * The documents that may match: those of the smallest set an index gives for one of the filter's top-level
 * equality or `$in` conditions on a non-null value, else every document (not copies); and that condition when
 * it holds of each of them by construction (nothing else in it).
 */
export function candidatesOf(
  filter: Filter,
  indexes: Record<string, IndexView>,
  everything: () => Document[],
): { docs: Document[]; implied?: Implied } {
  let best: { field: string; condition: unknown; values: (string | number)[]; sets: Document[][] } | undefined;
  let bestSize = Infinity;
  for (const [field, condition] of topLevelConditions(filter)) {
    const index = Object.prototype.hasOwnProperty.call(indexes, field) ? indexes[field] : undefined;
    if (!index) continue;
    let values: unknown[] | undefined;
    if (isScalar(condition)) values = [condition];
    else if (isPlain(condition) && '$eq' in condition) values = [condition.$eq];
    else if (isPlain(condition) && Array.isArray(condition.$in)) values = condition.$in;
    // Strings and numbers only: the tree is searched in NeDB's key order (compareKeys).
    if (!values || !values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
      continue;
    }
    const keys = [...new Set(values as (string | number)[])];
    const sets = keys.map((v) => search(index, v));
    const size = sets.reduce((n, s) => n + s.length, 0);
    if (size < bestSize) {
      best = { field, condition, values: keys, sets };
      bestSize = size;
    }
  }
  if (!best) return { docs: everything() };
  const pure = !isPlain(best.condition) || Object.keys(best.condition).length === 1;
  const implied = pure ? { field: best.field, condition: best.condition } : undefined;
  if (best.sets.length === 1) return { docs: best.sets[0]!, implied };
  // A document holding several of the `$in` values is in several sets: it is taken from the first only (which
  // its own field tells, cheaper than hashing every candidate).
  const { field, values, sets } = best;
  const candidates: Document[] = [];
  sets.forEach((set, i) => {
    const earlier = values.slice(0, i);
    for (const doc of set) {
      const value = doc[field];
      const seen = Array.isArray(value)
        ? value.some((v) => earlier.includes(v as string))
        : earlier.includes(value as string);
      if (!seen) candidates.push(doc);
    }
  });
  return { docs: candidates, implied };
}

// ---------------------------------------------------------------------------
// Sorting
// ---------------------------------------------------------------------------

/** A value's place in MongoDB's sort order among those the fast path sorts: missing/null, numbers, strings. */
function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  return -1;
}

/** Whether the fast path sorts this value exactly as MongoDB (and mingo) do. */
export function sortable(value: unknown): boolean {
  return typeRank(value) >= 0 && !(typeof value === 'number' && Number.isNaN(value));
}

function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  return (a as string | number) < (b as string | number) ? -1 : (a as string | number) > (b as string | number) ? 1 : 0;
}

/** NeDB's order of index keys, for the types the walk accepts (lib/model.js compareThings). */
function compareKeys(a: unknown, b: unknown): number {
  const rank = (v: unknown) =>
    v === undefined ? 0 : v === null ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : 4;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 4) throw new Unsupported();
  if (ra <= 1) return 0;
  return (a as string | number) < (b as string | number) ? -1 : (a as string | number) > (b as string | number) ? 1 : 0;
}

/** A value the fast path cannot place exactly: the caller takes the general path. */
export class Unsupported extends Error {}

export function comparatorOf(sort: SortSpec): (a: Document, b: Document) => number {
  const keys = Object.entries(sort) as [string, 1 | -1][];
  return (a, b) => {
    for (const [key, direction] of keys) {
      const order = compareValues(a[key], b[key]);
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

/** Whether every sort key is a plain field and every document's sort values sort exactly. */
export function sortableBy(sort: SortSpec, docs: readonly Document[]): boolean {
  const keys = Object.keys(sort);
  if (!keys.every(isFieldName)) return false;
  for (const doc of docs) for (const key of keys) if (!sortable(doc[key])) return false;
  return true;
}

/**
 * The first `skip + limit` documents in `sort` order that pass `test`, read by walking `index` (the first sort
 * key's, not sparse) in that key's direction: each run of equal keys is sorted by the other keys. Throws
 * `Unsupported` on a value it cannot place exactly (an array, a boolean, a date...).
 */
export function walkIndex(
  index: IndexView,
  sort: SortSpec,
  test: (doc: Document) => boolean,
  wanted: number,
): Document[] {
  const [first, ...rest] = Object.entries(sort) as [string, 1 | -1][];
  if (!first || index.sparse || !isFieldName(first[0]) || rest.some(([key]) => !isFieldName(key))) {
    throw new Unsupported();
  }
  const [field, direction] = first;
  const byRest = comparatorOf(Object.fromEntries(rest));
  const found: Document[] = [];
  let run: Document[] = [];
  let runKey: unknown;
  const flush = () => {
    if (run.length > 1 && rest.length > 0) run.sort(byRest);
    found.push(...run);
    run = [];
  };
  const root = index.tree.tree;
  if (!root || !Object.prototype.hasOwnProperty.call(root, 'key')) return [];
  // In-order (or reverse) traversal that stops once the page is full at the end of a run of equal keys.
  const stack: TreeNode[] = [];
  let node: TreeNode | null = root;
  const near = (n: TreeNode) => (direction === 1 ? n.left : n.right);
  const far = (n: TreeNode) => (direction === 1 ? n.right : n.left);
  while (stack.length > 0 || node) {
    while (node) {
      stack.push(node);
      node = near(node);
    }
    const current = stack.pop()!;
    // NeDB keys undefined and null apart; MongoDB sorts them as one value.
    const key = current.key === undefined ? null : current.key;
    if (!sortable(key)) throw new Unsupported();
    if (run.length > 0 && compareValues(key, runKey) !== 0) {
      flush();
      if (found.length >= wanted) return found;
    }
    runKey = key;
    for (const doc of current.data) {
      const value = doc[field];
      // An array is indexed under each element; MongoDB sorts it by its smallest (or largest) one.
      if (!sortable(value)) throw new Unsupported();
      if (!test(doc)) continue;
      for (const [key] of rest) if (!sortable(doc[key])) throw new Unsupported();
      run.push(doc);
    }
    node = far(current);
  }
  flush();
  return found;
}

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

/** The parts of an NeDB datastore the fast paths read. */
export interface NedbView {
  indexes: Record<string, IndexView>;
  getAllData(): Document[];
  executor: { pushAsync<R>(task: () => Promise<R>): Promise<R> };
}

/** How many reads the fast paths answered (the rest took the general path): for tests and profiles. */
export const fastPathAnswers = { count: 0, page: 0, walk: 0 };

/** Above this many candidates a sorted page is read by walking the sort key's index rather than sorting them. */
const WALK_ABOVE = 2000;

/** Runs `read` in NeDB's queue (as its own cursors do); undefined when the fast path does not apply. */
function fast<R>(db: NedbView, read: () => R): Promise<R | undefined> {
  return db.executor.pushAsync(() => {
    try {
      return Promise.resolve(read());
    } catch (error) {
      if (error instanceof Unsupported) return Promise.resolve(undefined);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** How many documents match, or undefined (take the general path). */
export function fastCount(db: NedbView, filter: Filter): Promise<number | undefined> {
  if (!compileFilter(filter)) return Promise.resolve(undefined);
  return fast(db, () => {
    const { docs, implied } = candidatesOf(filter, db.indexes, () => db.getAllData());
    const matches = compileFilter(filter, implied)!;
    let count = 0;
    for (const doc of docs) if (matches(doc)) count++;
    fastPathAnswers.count++;
    return count;
  });
}

/**
 * One sorted page of the matches, NeDB's own documents (the caller copies them), or undefined (take the general
 * path). Ties keep the candidates' order.
 */
export function fastPage(
  db: NedbView,
  filter: Filter,
  sort: SortSpec,
  skip: number,
  limit: number,
): Promise<Document[] | undefined> {
  const matches = compileFilter(filter);
  const keys = Object.keys(sort);
  if (!matches || keys.length === 0 || !keys.every(isFieldName)) return Promise.resolve(undefined);
  return fast(db, () => {
    const { docs: candidates, implied } = candidatesOf(filter, db.indexes, () => db.getAllData());
    const index = Object.prototype.hasOwnProperty.call(db.indexes, keys[0]!) ? db.indexes[keys[0]!] : undefined;
    let sorted: Document[];
    if (index && !index.sparse && candidates.length > WALK_ABOVE) {
      // The walk meets every document, not just the candidates: it tests the whole filter.
      sorted = walkIndex(index, sort, matches, skip + limit);
      fastPathAnswers.walk++;
    } else {
      sorted = candidates.filter(compileFilter(filter, implied)!);
      if (!sortableBy(sort, sorted)) throw new Unsupported();
      sorted.sort(comparatorOf(sort));
    }
    fastPathAnswers.page++;
    return sorted.slice(skip, skip + limit);
  });
}
