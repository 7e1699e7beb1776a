/**
 * Port filters (MongoDB's query language) as SQLite conditions over the JSON text column `doc`.
 *
 * Unlike the PostgreSQL adapter's translation, this one may narrow without deciding: each condition becomes SQL
 * that is true for every match (a superset), and says whether it is also exact. The adapter evaluates a filter that
 * is not exact with mingo on the rows SQL returns, so a condition without a translation costs speed, never a
 * wrong answer. Field tests are written on `json_type(doc, P)` and `json_extract(doc, P)` with the path as a
 * literal, the expressions of the adapter's indexes (./ddl.ts), so that SQLite can use them.
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

const NO_SIDE_TABLES: SideTables = new Map();

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

/** The JSON types (json_type's names) a scalar has, and the SQL value to compare json_extract's result with. */
function typedScalar(value: unknown): { types: string; value?: string | number } | undefined {
  if (typeof value === 'string') return { types: "('text')", value };
  if (typeof value === 'number' && Number.isFinite(value)) return { types: NUMBER_TYPES, value };
  if (typeof value === 'boolean') return { types: value ? "('true')" : "('false')" };
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
function compares(
  field: string,
  operator: '=' | '>' | '>=' | '<' | '<=',
  scalar: unknown,
  sideTables: SideTables,
): Prefilter {
  const path = jsonPath(field);
  const typed = typedScalar(scalar);
  if (!path || !typed || (operator !== '=' && typed.value === undefined)) return ANYTHING;
  const test = (type: string, value: string) =>
    typed.value === undefined ? `${type} IN ${typed.types}` : `(${type} IN ${typed.types} AND ${value} ${operator} ?)`;
  const values = typed.value === undefined ? [] : [typed.value, typed.value];
  const itself = test(`json_type(doc, ${path})`, `json_extract(doc, ${path})`);
  const side = sideTables.get(field);
  const element = side
    ? `id IN (SELECT id FROM ${side} WHERE ${test('type', 'value')})`
    : `(json_type(doc, ${path}) = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, ${path}) AS element ` +
      `WHERE ${test('element.type', 'element.value')}))`;
  const segments = field.split('.');
  const arraysOnTheWay = segments
    .slice(0, -1)
    .map((_, i) => `json_type(doc, ${jsonPath(segments.slice(0, i + 1).join('.'))}) = 'array'`);
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

function operator(field: string, op: string, arg: unknown, sideTables: SideTables): Prefilter {
  if (op === '$eq') return compares(field, '=', arg, sideTables);
  if (op === '$in' && Array.isArray(arg)) return or(arg.map((item) => compares(field, '=', item, sideTables)));
  // MongoDB compares ranges only within a type; strings are left to mingo (JavaScript orders them by UTF-16 code
  // units, SQLite by UTF-8 bytes).
  if (op in RANGE_OPERATORS && typeof arg === 'number')
    return compares(field, RANGE_OPERATORS[op as keyof typeof RANGE_OPERATORS], arg, sideTables);
  return ANYTHING;
}

function fieldCondition(field: string, condition: unknown, sideTables: SideTables): Prefilter {
  if (field === '_id') {
    const byId = idCondition(condition);
    if (byId) return byId;
  }
  if (types.isRegExp(condition)) return ANYTHING;
  if (isOperatorObject(condition)) {
    if ('$options' in condition) return ANYTHING;
    return and(Object.entries(condition).map(([op, arg]) => operator(field, op, arg, sideTables)));
  }
  return compares(field, '=', condition, sideTables);
}

/** The filter as a prefilter on the collection's table (columns `id` and `doc`) and the side tables of its fields. */
export function filterToSql(filter: Filter, sideTables: SideTables = NO_SIDE_TABLES): Prefilter {
  const parts = Object.entries(filter).map(([key, value]): Prefilter => {
    if (key === '$and' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return and(value.map((part) => filterToSql(part, sideTables)));
    if (key === '$or' && Array.isArray(value) && value.length > 0 && value.every(isPlainObject))
      return or(value.map((part) => filterToSql(part, sideTables)));
    if (key.startsWith('$')) return ANYTHING;
    return fieldCondition(key, value, sideTables);
  });
  return and(parts);
}
