/**
 * Port filters (MongoDB's query language) as SQLite conditions over the JSON text column `doc`.
 *
 * Unlike the PostgreSQL adapter's translation, this one may narrow without deciding: each condition becomes SQL
 * that is true for every match (a superset), and says whether it is also exact. The adapter evaluates a filter that
 * is not exact with mingo on the rows SQL returns, so a condition without a translation costs speed, never a
 * wrong answer. Field tests are written on `typeRank(P)` and `json_extract(doc, P)` with the path as a literal,
 * the expressions of the adapter's indexes (./ddl.ts), so that SQLite can use them.
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
export function typeRank(path: string): string {
  return (
    `(CASE json_type(doc, ${path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'object' THEN 3 ` +
    `WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END)`
  );
}

export const ARRAY_RANK = 4;

/**
 * A scalar's type rank, its JSON types (json_each's names, for array elements) and the SQL value json_extract gives
 * for it (booleans: 1 and 0).
 */
function typedScalar(value: unknown): { rank: number; types: string; value: string | number } | undefined {
  if (typeof value === 'string') return { rank: 2, types: "('text')", value };
  if (typeof value === 'number' && Number.isFinite(value)) return { rank: 1, types: NUMBER_TYPES, value };
  if (typeof value === 'boolean') return { rank: 5, types: value ? "('true')" : "('false')", value: value ? 1 : 0 };
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

/**
 * Some value at the field compares with `operator` to `value`: the field itself, or (top-level path) an element of
 * the array it holds. Under a dotted path an array on the way may hold the match too: that case is left to mingo.
 */
function compares(field: string, operator: '=' | '>' | '>=' | '<' | '<=', scalar: unknown): Prefilter {
  const path = jsonPath(field);
  const typed = typedScalar(scalar);
  if (!path || !typed) return ANYTHING;
  const rank = typeRank(path);
  const itself = `(${rank} = ${typed.rank} AND json_extract(doc, ${path}) ${operator} ?)`;
  const element =
    `(${rank} = ${ARRAY_RANK} AND EXISTS (SELECT 1 FROM json_each(doc, ${path}) AS element ` +
    `WHERE element.type IN ${typed.types} AND element.value ${operator} ?))`;
  const segments = field.split('.');
  const arraysOnTheWay = segments
    .slice(0, -1)
    .map((_, i) => `json_type(doc, ${jsonPath(segments.slice(0, i + 1).join('.'))}) = 'array'`);
  return {
    sql: `(${[itself, element, ...arraysOnTheWay].join(' OR ')})`,
    values: [typed.value, typed.value],
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

function operator(field: string, op: string, arg: unknown): Prefilter {
  if (op === '$eq') return compares(field, '=', arg);
  if (op === '$in' && Array.isArray(arg)) return or(arg.map((item) => compares(field, '=', item)));
  // Every search filters `deleted: {$ne: true}`: undecided, it left each count and page to mingo.
  if (op === '$ne') return not(compares(field, '=', arg));
  if (op === '$nin' && Array.isArray(arg)) return and(arg.map((item) => not(compares(field, '=', item))));
  // MongoDB compares ranges only within a type. JavaScript orders strings by UTF-16 code units, SQLite by UTF-8
  // bytes: the two agree on where any string lies against an ASCII bound (a non-ASCII character is above every
  // ASCII one in both), so only a range with a non-ASCII bound is left to mingo.
  if (op in RANGE_OPERATORS && (typeof arg === 'number' || (typeof arg === 'string' && ASCII.test(arg))))
    return compares(field, RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS], arg);
  return ANYTHING;
}

function fieldCondition(field: string, condition: unknown): Prefilter {
  if (field === '_id') {
    const byId = idCondition(condition);
    if (byId) return byId;
  }
  if (types.isRegExp(condition)) return ANYTHING;
  if (isOperatorObject(condition)) {
    if ('$options' in condition) return ANYTHING;
    return and(Object.entries(condition).map(([op, arg]) => operator(field, op, arg)));
  }
  return compares(field, '=', condition);
}

/** The filter as a prefilter on the collection's table (columns `id` and `doc`). */
export function filterToSql(filter: Filter): Prefilter {
  const parts = Object.entries(filter).map(([key, value]): Prefilter => {
    if (key === '$and' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return and(value.map(filterToSql));
    if (key === '$or' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return or(value.map(filterToSql));
    if (key.startsWith('$')) return ANYTHING;
    return fieldCondition(key, value);
  });
  return and(parts);
}
