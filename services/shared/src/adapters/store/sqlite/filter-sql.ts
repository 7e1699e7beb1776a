/**
 * Port filters (MongoDB's query language) as SQLite conditions over the JSON text column `doc`.
 *
 * Unlike the PostgreSQL adapter's translation, this one may narrow without deciding: each condition becomes SQL
 * that is true for every match (a superset), and says whether it is also exact. The adapter evaluates a filter that
 * is not exact with mingo on the rows SQL returns, so a condition without a translation costs speed, never a
 * wrong answer. Field tests are written on `typeRank(P)` and `json_extract(doc, P)` with the path as a literal,
 * the expressions of the adapter's indexes (./ddl.ts), so that SQLite can use them; the elements of the
 * arrays a top-level field holds are tested on the field's side table when it has one (a multikey index, ./ddl.ts),
 * else with json_each on every array at the field.
 */
import { types } from 'node:util';
import { isOperatorObject } from '../document-ops';
import type { Filter } from '../../../ports/store';
import { isPlainObject } from '../../../ports/store-rules';

export interface SqlCondition {
  sql: string;
  values: unknown[];
}

/** SQL true for every match of the filter; `exact` when it is true for the matches only. */
export interface Prefilter extends SqlCondition {
  exact: boolean;
}

/**
 * Top-level fields to the side table (quoted) keeping the scalar elements of the arrays they hold (./ddl.ts): an
 * element test on such a field reads that table's index instead of the elements of every array at the field.
 */
export type SideTables = ReadonlyMap<string, string>;

/**
 * The collection's table (quoted) and the type-rank indexes (quoted names, ./ddl.ts) of fields with a side table: a
 * test of such a field that the query does not start from reads the index (a probe per row, the index covering it)
 * rather than the document's JSON, which SQLite would parse again for each test.
 */
export interface RankProbes {
  table: string;
  ranked: ReadonlyMap<string, string>;
  /**
   * The partial index (quoted name) of the documents holding an array at `prefix` (a dotted key's proper prefix,
   * ./ddl.ts), when the collection has one: the test for an array on a dotted path's way reads it, where it read
   * every document.
   */
  arraysAt(prefix: string): string | undefined;
}

/** A field tested outside any `$or` on its side table, with the SQL that finds the documents that may match. */
export interface DrivingCandidate {
  field: string;
  side: string;
  /** On the side table's columns: its rows for the documents whose array may match. */
  elements: SqlCondition;
  /** On the collection's table (its index on the field): the documents whose value itself may match. */
  itself: SqlCondition;
}

/**
 * Picks the field whose tests SQLite starts from (the one that finds the fewest documents), among two or more; null
 * for none: every field is then tested document by document (a walk of a sort field's index, for one).
 */
export type ChooseDriving = (candidates: DrivingCandidate[]) => string | null;

interface Tests {
  elements: SqlCondition[];
  itself: SqlCondition[];
}

interface Context {
  sideTables: SideTables;
  probes?: RankProbes;
  /**
   * The field whose element tests read `id IN (SELECT doc_id FROM side ...)`, for SQLite to start from that list;
   * null when it starts from `_id`. The element tests of the other fields read `EXISTS (... WHERE doc_id = id ...)`,
   * a probe per row: an `IN` SQLite does not start from is listed in full first, and for a token most documents hold
   * (`allowed: 'Anonymous'`) that is most of the table. Undefined when no side table is tested outside an `$or`:
   * then the tests under an `$or` read `IN`, for each branch to start from an index of its own.
   */
  driving?: string | null;
  inOr: boolean;
  /** Filled while translating: the tests of the fields with a side table, outside any `$or`, and `_id` tests. */
  collected?: { fields: Map<string, Tests>; byId: boolean };
}

const ANYTHING: Prefilter = { sql: '1', values: [], exact: false };
const NUMBER_TYPES = "('integer', 'real')";

/** A JSON path literal for SQLite (`'$."a"."b"'`); undefined for a field it cannot name exactly. */
export function jsonPath(field: string): string | undefined {
  const segments = field.split('.');
  // Numeric segments are array positions as well as names for MongoDB; quotes and backslashes are not escapable
  // in SQLite's path labels.
  const plain = (segment: string) => segment !== '' && !segment.startsWith('$') && !/^\d+$|["\\]/.test(segment);
  if (!segments.every(plain)) return undefined;
  return `'$${segments.map((segment) => `."${segment.replace(/'/g, "''")}"`).join('')}'`;
}

/**
 * MongoDB's order of types as a number, for the value at `path`: missing and null 0, numbers 1, strings 2, documents
 * 3, arrays 4, booleans 5. The adapter's indexes are on `(typeRank, json_extract, id)` (./ddl.ts), so one index
 * answers equality, ranges and a sort by the field (./sort-sql.ts writes the same expression).
 */
export function typeRank(path: string, column = 'doc'): string {
  return (
    `(CASE json_type(${column}, ${path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 ` +
    `WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END)`
  );
}

export const ARRAY_RANK = 4;

/** A scalar's type: its rank (`typeRank`) and its JSON types (json_type's names, for array elements). */
export interface ScalarType {
  rank: number;
  types: string;
}

const TEXT: ScalarType = { rank: 2, types: "('text')" };

/** A scalar's type and the SQL value json_extract gives for it (booleans: 1 and 0). */
export interface TypedScalar {
  type: ScalarType;
  value: string | number;
}

/** A string, finite number or boolean as a TypedScalar; undefined for any other value. */
export function typedScalar(value: unknown): TypedScalar | undefined {
  if (typeof value === 'string') return { type: TEXT, value };
  if (typeof value === 'number' && Number.isFinite(value)) return { type: { rank: 1, types: NUMBER_TYPES }, value };
  if (typeof value === 'boolean')
    return { type: { rank: 5, types: value ? "('true')" : "('false')" }, value: value ? 1 : 0 };
  return undefined;
}

function and(parts: Prefilter[]): Prefilter {
  const narrowing = parts.filter((part) => part.sql !== '1');
  const exact = parts.every((part) => part.exact);
  if (narrowing.length === 0) return { sql: '1', values: [], exact };
  return {
    sql: narrowing.length === 1 ? narrowing[0].sql : `(${narrowing.map((part) => part.sql).join(' AND ')})`,
    values: narrowing.flatMap((part) => part.values),
    exact,
  };
}

function or(parts: Prefilter[]): Prefilter {
  if (parts.length === 0) return { sql: '0', values: [], exact: true };
  if (parts.some((part) => part.sql === '1')) return { ...ANYTHING, exact: parts.every((part) => part.exact) };
  return {
    sql: `(${parts.map((part) => part.sql).join(' OR ')})`,
    values: parts.flatMap((part) => part.values),
    exact: parts.every((part) => part.exact),
  };
}

/** Some value at the field compares with `operator` to the scalar (see `valueTest`). */
function compares(
  field: string,
  operator: '=' | '>' | '>=' | '<' | '<=',
  scalar: unknown,
  context: Context,
): Prefilter {
  if (scalar === null && operator === '=') return isNull(field);
  const typed = typedScalar(scalar);
  if (!typed) return ANYTHING;
  return valueTest(field, typed.type, [[operator, typed.value]], context);
}

/**
 * MongoDB's `{ field: null }` on a top-level field: missing or null (type rank 0, which the field's index finds), or
 * an array holding null. Every catalog search asks it of `effective` and `expires` for callers who see active content
 * only; undecided, their counts and pages were left to mingo. Under a dotted path an array on the way may hold the
 * null: left to mingo.
 */
function isNull(field: string): Prefilter {
  const path = jsonPath(field);
  if (!path || field.includes('.')) return ANYTHING;
  const rank = typeRank(path);
  return {
    sql:
      `(${rank} = 0 OR (${rank} = ${ARRAY_RANK} AND ` +
      `EXISTS (SELECT 1 FROM json_each(doc, ${path}) AS element WHERE element.type = 'null')))`,
    values: [],
    exact: true,
  };
}

type Bound = ['=' | '>' | '>=' | '<' | '<=', string | number];

/**
 * Some value at the field is of `type` and meets every bound: the field itself, or (top-level path) an element of the
 * array it holds. Under a dotted path an array on the way may hold the match too: that case is left to mingo.
 */
function valueTest(field: string, type: ScalarType, bounds: Bound[], context: Context): Prefilter {
  const path = jsonPath(field);
  if (!path) return ANYTHING;
  const boundTests = (value: string) => bounds.map(([op]) => `${value} ${op} ?`).join(' AND ');
  const test = (column: string, value: string) => `(${column} IN ${type.types} AND ${boundTests(value)})`;
  const boundValues = bounds.map(([, value]) => value);
  const values = [...boundValues, ...boundValues];
  const rank = typeRank(path);
  const startsHere = context.driving === undefined || (!context.inOr && context.driving === field);
  // Only an equality probe finds its row by the index's last column (id); after a range it would read the range.
  const ranked = bounds.every(([op]) => op === '=') ? context.probes?.ranked.get(field) : undefined;
  const itself =
    !startsHere && ranked
      ? `EXISTS (SELECT 1 FROM ${context.probes!.table} AS probe INDEXED BY ${ranked} WHERE ` +
        `${typeRank(path, 'probe.doc')} = ${type.rank} AND ${boundTests(`json_extract(probe.doc, ${path})`)} ` +
        `AND probe.id = ${context.probes!.table}.id)`
      : `(${rank} = ${type.rank} AND ${boundTests(`json_extract(doc, ${path})`)})`;
  const side = context.sideTables.get(field);
  if (side && !context.inOr && context.collected) {
    const { fields } = context.collected;
    const tests = fields.get(field) ?? { elements: [], itself: [] };
    tests.elements.push({ sql: test('type', 'value'), values: boundValues });
    tests.itself.push({ sql: itself, values: boundValues });
    fields.set(field, tests);
  }
  const element = !side
    ? `(${rank} = ${ARRAY_RANK} AND EXISTS (SELECT 1 FROM json_each(doc, ${path}) AS element ` +
      `WHERE ${test('element.type', 'element.value')}))`
    : startsHere
      ? `id IN (SELECT doc_id FROM ${side} WHERE ${test('type', 'value')})`
      : `EXISTS (SELECT 1 FROM ${side} WHERE doc_id = id AND ${test('type', 'value')})`;
  const segments = field.split('.');
  const arraysOnTheWay = segments.slice(0, -1).map((_, i) => {
    const prefix = segments.slice(0, i + 1).join('.');
    const isArray = (column: string) => `json_type(${column}, ${jsonPath(prefix)}) = 'array'`;
    const index = context.probes?.arraysAt(prefix);
    return index
      ? `id IN (SELECT id FROM ${context.probes!.table} AS onway INDEXED BY ${index} WHERE ${isArray('onway.doc')})`
      : isArray('doc');
  });
  return {
    sql: `(${[itself, element, ...arraysOnTheWay].join(' OR ')})`,
    values,
    exact: arraysOnTheWay.length === 0,
  };
}

function idCondition(condition: unknown): Prefilter | undefined {
  if (typeof condition === 'string') return { sql: '(id = ?)', values: [condition], exact: true };
  if (!isOperatorObject(condition) || Object.keys(condition).length !== 1) return undefined;
  const [[op, arg]] = Object.entries(condition);
  if (op === '$eq' && typeof arg === 'string') return { sql: '(id = ?)', values: [arg], exact: true };
  if (op === '$in' && Array.isArray(arg) && arg.every((item) => typeof item === 'string')) {
    if (arg.length === 0) return { sql: '0', values: [], exact: true };
    return { sql: `(id IN (${arg.map(() => '?').join(', ')}))`, values: arg, exact: true };
  }
  return undefined;
}

const RANGE_OPERATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * True where `part` is not: exact only when `part` is (the negation of a superset is no superset). A field SQL finds
 * missing makes `part` NULL, and a missing field is unequal to every value, so NULL counts as false.
 */
function not(part: Prefilter): Prefilter {
  return part.exact ? { sql: `(NOT IFNULL(${part.sql}, 0))`, values: part.values, exact: true } : ANYTHING;
}

/**
 * The top-level field is there (null included), or not: rank 0 holds both missing and null, so the field's index
 * finds every other rank and leaves only those two to tell apart. Under a dotted path an array on the way may hold
 * it: left to mingo.
 */
function exists(field: string, wanted: boolean): Prefilter {
  const path = jsonPath(field);
  if (!path || field.includes('.')) return ANYTHING;
  const rank = typeRank(path);
  const sql = wanted
    ? `(${rank} > 0 OR (${rank} = 0 AND json_type(doc, ${path}) IS NOT NULL))`
    : `(${rank} = 0 AND json_type(doc, ${path}) IS NULL)`;
  return { sql, values: [], exact: true };
}

function operator(field: string, op: string, arg: unknown, context: Context): Prefilter {
  if (op === '$eq') return compares(field, '=', arg, context);
  if (op === '$in' && Array.isArray(arg)) return or(arg.map((item) => compares(field, '=', item, context)));
  // Every search filters `deleted: {$ne: true}`: undecided, it left each count and page to mingo. A negated test is
  // no list of documents to start from: translated as under an `$or`.
  const negated = { ...context, inOr: true };
  if (op === '$ne') return not(compares(field, '=', arg, negated));
  if (op === '$nin' && Array.isArray(arg)) return and(arg.map((item) => not(compares(field, '=', item, negated))));
  if (op === '$exists') return exists(field, Boolean(arg));
  // MongoDB compares ranges only within a type. JavaScript orders strings by UTF-16 code units, SQLite by UTF-8
  // bytes: the two agree on where any string lies against an ASCII bound (a non-ASCII character is above every
  // ASCII one in both), so only a range with a non-ASCII bound is left to mingo.
  if (op in RANGE_OPERATORS && (typeof arg === 'number' || (typeof arg === 'string' && ASCII.test(arg))))
    return compares(field, RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS], arg, context);
  return ANYTHING;
}

/**
 * The literal prefix a regular expression anchored at the start and otherwise literal matches (`^doc`, `^a\.b`:
 * what the search service sends for `doc*`); undefined for any other.
 */
function literalPrefix(source: string): string | undefined {
  const match = /^\^((?:[^\\^$.|?*+()[\]{}]|\\[^A-Za-z0-9])+)$/.exec(source);
  return match?.[1].replace(/\\(.)/g, '$1');
}

/** The least string above every string that starts with `prefix`, in code point order (UTF-8's byte order). */
function prefixEnd(prefix: string): string | undefined {
  const codePoints = Array.from(prefix, (char) => char.codePointAt(0)!);
  if (codePoints.some((point) => point >= 0xd800 && point <= 0xdfff)) return undefined;
  const last = codePoints.pop()!;
  if (last === 0x10ffff) return undefined;
  return String.fromCodePoint(...codePoints, last === 0xd7ff ? 0xe000 : last + 1);
}

/**
 * A regular expression that only asks for a literal prefix, as a range of strings (SQLite orders text by UTF-8 bytes,
 * the order of code points, in which the strings that start with a prefix are a range). Not exact: mingo decides.
 */
function regexCondition(field: string, regex: unknown, options: unknown, context: Context): Prefilter {
  const source = typeof regex === 'string' ? regex : types.isRegExp(regex) ? regex.source : undefined;
  const flags = `${types.isRegExp(regex) ? regex.flags : ''}${options ?? ''}`;
  const prefix = source === undefined || flags !== '' ? undefined : literalPrefix(source);
  const end = prefix === undefined ? undefined : prefixEnd(prefix);
  if (prefix === undefined || end === undefined) return ANYTHING;
  return {
    ...valueTest(
      field,
      TEXT,
      [
        ['>=', prefix],
        ['<', end],
      ],
      context,
    ),
    exact: false,
  };
}

function fieldCondition(field: string, condition: unknown, context: Context): Prefilter {
  if (field === '_id') {
    const byId = idCondition(condition);
    if (byId && !context.inOr && context.collected) context.collected.byId = true;
    if (byId) return byId;
  }
  if (types.isRegExp(condition)) return regexCondition(field, condition, '', context);
  if (isOperatorObject(condition)) {
    if ('$regex' in condition) {
      const { $regex: regex, $options: options, ...others } = condition;
      return and([
        regexCondition(field, regex, options, context),
        ...Object.entries(others).map(([op, arg]) => operator(field, op, arg, context)),
      ]);
    }
    if ('$options' in condition) return ANYTHING;
    return and(Object.entries(condition).map(([op, arg]) => operator(field, op, arg, context)));
  }
  return compares(field, '=', condition, context);
}

function translate(filter: Filter, context: Context): Prefilter {
  const parts = Object.entries(filter).map(([key, value]): Prefilter => {
    if (key === '$and' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return and(value.map((part) => translate(part, context)));
    if (key === '$or' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return or(value.map((part) => translate(part, { ...context, inOr: true })));
    if (key.startsWith('$')) return ANYTHING;
    return fieldCondition(key, value, context);
  });
  return and(parts);
}

/**
 * The filter as a prefilter on the collection's table (columns `id` and `doc`) and the side tables of its fields.
 * When two or more fields are tested on side tables, `chooseDriving` picks the one SQLite starts from (by default
 * the first); none when `_id` is tested. With `probes`, the other fields' own values are tested on their indexes.
 */
export function filterToSql(
  filter: Filter,
  sideTables: SideTables = new Map(),
  chooseDriving: ChooseDriving = ([first]) => first.field,
  probes?: RankProbes,
): Prefilter {
  const collected = { fields: new Map<string, Tests>(), byId: false };
  const prefilter = translate(filter, { sideTables, probes, inOr: false, collected });
  if (sideTables.size === 0) return prefilter;
  const join = (conditions: SqlCondition[]): SqlCondition => ({
    sql: conditions.map((condition) => condition.sql).join(' OR '),
    values: conditions.flatMap((condition) => condition.values),
  });
  const candidates = [...collected.fields].map(([field, tests]) => ({
    field,
    side: sideTables.get(field)!,
    elements: join(tests.elements),
    itself: join(tests.itself),
  }));
  const driving = collected.byId ? null : candidates.length > 1 ? chooseDriving(candidates) : candidates[0]?.field;
  return driving === undefined ? prefilter : translate(filter, { sideTables, probes, inOr: false, driving });
}
