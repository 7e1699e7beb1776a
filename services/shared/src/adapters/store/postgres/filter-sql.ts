/**
 * Port filters (MongoDB's query language) as SQL over a jsonb column, where the translation is exact.
 *
 * Field conditions become SQL/JSON path predicates on the value of their first field
 * (`doc -> 'a' @? '$."b" ? (@ == "x")'`): in lax mode a path steps into arrays and a filter tests each element,
 * which is MongoDB's array unwrapping, and comparisons between different types are unknown (false), which is
 * MongoDB's "ranges only within a type". `@?` with `==` is served by a GIN (jsonb_path_ops) index on
 * `(doc -> 'a')`, the one the adapter's createIndex makes. What has no exact translation (positional paths, `$elemMatch`,
 * regular expressions beyond a plain subset, equality with documents...) is left to the caller, which evaluates
 * it with mingo.
 */
import { types } from 'node:util';
import { isOperatorObject } from '../document-ops';
import { isPlainObject } from '../../../ports/store-rules';
import type { Filter } from '../../../ports/store';
import { escapeJson, escapeText } from './nul-escape';

export interface FilterSqlOptions {
  /** The jsonb column (or expression) holding the documents, e.g. `doc` or `t.doc`. */
  column: string;
  /** The number of the first `$n` parameter the SQL may use. */
  firstParam: number;
  /** A text column equal to the document's `_id` (its primary key), used for conditions on `_id`. */
  idColumn?: string;
}

export interface SqlCondition {
  sql: string;
  values: unknown[];
}

/** The filter's parts: SQL for what translates exactly, and the conditions left for mingo (`$and`-ed). */
export interface SplitFilter extends SqlCondition {
  residual: Filter[];
}

/** Thrown inside the translator when a condition has no exact translation. */
class Untranslatable extends Error {}

type Scalar = string | number | boolean | null;

function untranslatable(): never {
  throw new Untranslatable();
}

/** Values compared the same way in JSON as in MongoDB (a Date is stored as its ISO string, so compared as one). */
function scalarOf(value: unknown): Scalar | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (types.isDate(value)) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  return undefined;
}

/** A jsonpath literal: JSON's string and number syntax is jsonpath's. */
function literal(value: Scalar): string {
  return escapeJson(JSON.stringify(value));
}

function pathSegments(field: string): string[] {
  const segments = field.split('.');
  // A numeric segment is an array position for MongoDB as well as a field name: not translated.
  if (segments.some((segment) => segment === '' || segment.startsWith('$') || /^\d+$/.test(segment))) {
    untranslatable();
  }
  return segments;
}

/** Patterns whose meaning is the same for JavaScript and PostgreSQL's regular expressions. */
const PORTABLE_REGEX = /^(?:[\w \-^$.*+?|()[\]/:,;@#%&=~'"!<>]|\\[^\w])*$/;

function regexCondition(source: string, flags: string): string {
  // (PORTABLE_REGEX admits neither U+0000 nor the character that escapes it, ./nul-escape.ts.)
  if (!PORTABLE_REGEX.test(source) || source.includes('(?') || /[^gi]/.test(flags)) untranslatable();
  return `@ like_regex ${JSON.stringify(source)}${flags.includes('i') ? ' flag "i"' : ''}`;
}

class Translator {
  readonly values: unknown[] = [];

  constructor(private readonly options: FilterSqlOptions) {}

  private param(value: unknown): string {
    this.values.push(value);
    return `$${this.options.firstParam + this.values.length - 1}`;
  }

  /** Whether some value at the path satisfies the jsonpath filter condition. */
  private pathHas(segments: string[], condition?: string): string {
    // From the value of the first field (NULL when missing), so that an expression index on it serves the test.
    const [first, ...rest] = segments;
    const path = `$${rest.map((segment) => `.${escapeJson(JSON.stringify(segment))}`).join('')}`;
    const jsonPath = this.param(condition ? `${path} ? (${condition})` : path);
    return `((${fieldValue(this.options.column, first)}) @? ${jsonPath}::jsonpath)`;
  }

  filter(filter: Filter): string {
    const parts = Object.entries(filter).map(([key, value]) => this.entry(key, value));
    return and(parts);
  }

  entry(key: string, value: unknown): string {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) untranslatable();
      const parts = value.map((sub) => this.filter(sub));
      if (key === '$and') return and(parts);
      const any = `(${parts.join(' OR ')})`;
      return key === '$or' ? any : not(any);
    }
    if (key.startsWith('$')) untranslatable();
    return this.field(key, value);
  }

  private field(key: string, condition: unknown): string {
    const segments = pathSegments(key);
    if (key === '_id' && this.options.idColumn) {
      const byId = this.idCondition(condition);
      if (byId !== undefined) return byId;
    }
    if (types.isRegExp(condition)) return this.pathHas(segments, regexCondition(condition.source, condition.flags));
    if (isOperatorObject(condition)) return this.operators(segments, condition);
    return this.equals(segments, condition);
  }

  /** Conditions on `_id` that the primary key answers. */
  private idCondition(condition: unknown): string | undefined {
    const id = this.options.idColumn;
    if (typeof condition === 'string') return `(${id} = ${this.param(escapeText(condition))})`;
    if (!isOperatorObject(condition) || Object.keys(condition).length !== 1) return undefined;
    const [[op, arg]] = Object.entries(condition);
    const strings = Array.isArray(arg) && arg.every((item) => typeof item === 'string');
    if (op === '$eq' && typeof arg === 'string') return `(${id} = ${this.param(escapeText(arg))})`;
    if (op === '$ne' && typeof arg === 'string') return `(${id} <> ${this.param(escapeText(arg))})`;
    if (op === '$in' && strings) return `(${id} = ANY(${this.param(arg.map(escapeText))}::text[]))`;
    if (op === '$nin' && strings) return `(NOT ${id} = ANY(${this.param(arg.map(escapeText))}::text[]))`;
    return undefined;
  }

  private equals(segments: string[], value: unknown): string {
    const scalar = scalarOf(value);
    if (scalar === null) {
      // MongoDB: `{ a: null }` matches a null value and a missing field.
      return `(${not(this.pathHas(segments))} OR ${this.pathHas(segments, '@ == null')})`;
    }
    if (scalar !== undefined) return this.pathHas(segments, `@ == ${literal(scalar)}`);
    if (Array.isArray(value) && segments.length === 1) return this.equalsArray(segments[0], value);
    // Documents compare key order in MongoDB, which jsonb does not keep.
    return untranslatable();
  }

  /** A whole array: the field equals it, or (an array) holds an element equal to it. */
  private equalsArray(field: string, value: unknown[]): string {
    const items = value.map(scalarOf);
    if (items.some((item) => item === undefined)) untranslatable();
    const column = this.options.column;
    const json = this.param(escapeJson(JSON.stringify(items)));
    const key = this.param(field);
    return (
      `(${column} -> ${key} = ${json}::jsonb OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN ` +
      `jsonb_typeof(${column} -> ${key}) = 'array' THEN ${column} -> ${key} ELSE '[]'::jsonb END) AS element ` +
      `WHERE element = ${json}::jsonb))`
    );
  }

  private operators(segments: string[], condition: Record<string, unknown>): string {
    if ('$options' in condition && !('$regex' in condition)) untranslatable();
    const parts: string[] = [];
    for (const [op, arg] of Object.entries(condition)) {
      if (op === '$options') continue;
      parts.push(this.operator(segments, op, arg, condition.$options));
    }
    return and(parts);
  }

  private operator(segments: string[], op: string, arg: unknown, options: unknown): string {
    switch (op) {
      case '$eq':
        return this.equals(segments, arg);
      case '$ne':
        return not(this.equals(segments, arg));
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const bound = scalarOf(arg);
        if (bound === undefined || bound === null || typeof bound === 'boolean') return untranslatable();
        const symbol = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
        return this.pathHas(segments, `@ ${symbol} ${literal(bound)}`);
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) return untranslatable();
        const any = arg.length
          ? `(${arg.map((item) => (types.isRegExp(item) ? this.regex(segments, item) : this.equals(segments, item))).join(' OR ')})`
          : 'FALSE';
        return op === '$in' ? any : not(any);
      }
      case '$exists': {
        const exists = this.pathHas(segments);
        return arg ? exists : not(exists);
      }
      case '$regex': {
        if (types.isRegExp(arg)) {
          if (options !== undefined) return untranslatable();
          return this.regex(segments, arg);
        }
        if (typeof arg !== 'string' || (options !== undefined && typeof options !== 'string')) return untranslatable();
        return this.pathHas(segments, regexCondition(arg, options ?? ''));
      }
      case '$all': {
        // MongoDB: an empty $all matches nothing.
        if (!Array.isArray(arg) || arg.length === 0) return untranslatable();
        return and(arg.map((item) => (scalarOf(item) === undefined ? untranslatable() : this.equals(segments, item))));
      }
      case '$size': {
        if (segments.length !== 1 || typeof arg !== 'number' || !Number.isInteger(arg)) return untranslatable();
        const value = `${this.options.column} -> ${this.param(segments[0])}`;
        return `(CASE WHEN jsonb_typeof(${value}) = 'array' THEN jsonb_array_length(${value}) = ${this.param(arg)}::int ELSE FALSE END)`;
      }
      case '$not': {
        if (types.isRegExp(arg)) return not(this.regex(segments, arg));
        if (!isOperatorObject(arg)) return untranslatable();
        return not(this.operators(segments, arg));
      }
      default:
        return untranslatable();
    }
  }

  private regex(segments: string[], pattern: RegExp): string {
    return this.pathHas(segments, regexCondition(pattern.source, pattern.flags));
  }
}

/**
 * Negation in SQL's three-valued logic: a test on a missing field is NULL (false in WHERE), and NOT NULL would
 * be NULL too, where MongoDB's negation is true.
 */
function not(condition: string): string {
  return `(NOT COALESCE(${condition}, FALSE))`;
}

/** `column -> 'field'`: the value of a top-level field, as written in the adapter's expression indexes. */
export function fieldValue(column: string, field: string): string {
  return `${column} -> '${field.replace(/'/g, "''")}'`;
}

function and(parts: string[]): string {
  if (parts.length === 0) return 'TRUE';
  return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
}

/**
 * The filter as a boolean SQL expression over the jsonb `column`, with its parameters numbered from
 * `firstParam`; null when some part of it cannot be translated exactly (the caller then evaluates it otherwise).
 * The expression is true for the matches and false or NULL for the rest (as a WHERE condition it is exact; to
 * negate it, use `NOT COALESCE(expression, FALSE)`).
 */
export function filterToSql(filter: Filter, options: FilterSqlOptions): SqlCondition | null {
  const translator = new Translator(options);
  try {
    return { sql: translator.filter(filter), values: translator.values };
  } catch (err) {
    if (err instanceof Untranslatable) return null;
    throw err;
  }
}

/** The filter's top-level conditions (and those of a top-level `$and`) that translate, and the rest. */
export function splitFilter(filter: Filter, options: FilterSqlOptions): SplitFilter {
  const sql: string[] = [];
  const values: unknown[] = [];
  const residual: Filter[] = [];
  const visit = (conditions: Filter): void => {
    for (const [key, value] of Object.entries(conditions)) {
      if (key === '$and' && Array.isArray(value) && value.every(isPlainObject)) {
        value.forEach(visit);
        continue;
      }
      const translated = filterToSql({ [key]: value }, { ...options, firstParam: options.firstParam + values.length });
      if (translated) {
        sql.push(translated.sql);
        values.push(...translated.values);
      } else {
        residual.push({ [key]: value });
      }
    }
  };
  visit(filter);
  return { sql: and(sql), values, residual };
}
