/**
 * The DDL of the PostgreSQL adapter: schemas, one table per collection, and the indexes of the port's
 * `createIndex`. Every statement is idempotent and safe when several processes run it at once.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { IndexOptions } from '../../../ports/store';
import { fieldValue } from './filter-sql';

/** A double-quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A single-quoted SQL string literal (for DDL, which takes no parameters). */
function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** SQLSTATEs of a concurrent `CREATE ... IF NOT EXISTS` that lost the race on the system catalog. */
const CATALOG_RACE_CODES = new Set(['42P06', '42P07', '42710']);

function pgError(err: unknown): { code?: string; table?: string; constraint?: string; detail?: string } {
  return typeof err === 'object' && err !== null ? (err as Record<string, string | undefined>) : {};
}

/**
 * Whether `err` is the loser's error of two `CREATE ... IF NOT EXISTS` racing: a duplicate object, or a
 * unique violation on the system catalog itself (pg_namespace, pg_type, pg_class).
 */
export function isCatalogRace(err: unknown): boolean {
  const { code, table, constraint } = pgError(err);
  if (code !== undefined && CATALOG_RACE_CODES.has(code)) return true;
  return code === '23505' && (table?.startsWith('pg_') === true || constraint?.startsWith('pg_') === true);
}

/** Runs idempotent DDL, tolerating the catalog races of concurrent creators. */
export async function runDdl(pool: pg.Pool, sql: string): Promise<void> {
  try {
    await pool.query(sql);
  } catch (err) {
    if (!isCatalogRace(err)) throw err;
  }
}

export function createSchemaSql(schema: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`;
}

export function createTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, doc jsonb NOT NULL)`;
}

/** `doc -> 'a' -> 'b'`: the value at a dotted path (SQL NULL when missing), for index expressions. */
function valueAt(field: string): string {
  return `(doc${field
    .split('.')
    .map((segment) => ` -> ${quoteLiteral(segment)}`)
    .join('')})`;
}

export interface IndexPlan {
  name: string;
  sql: string;
  /** The key fields, for DuplicateKeyError messages. */
  fields: string[];
}

/** A name derived from the collection and the index specification; PostgreSQL names hold 63 bytes. */
function indexName(collection: string, spec: string): string {
  const hash = createHash('sha256').update(`${collection}\0${spec}`).digest('hex').slice(0, 10);
  const readable = `${collection}_${spec}`.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 40);
  return `${readable}_${hash}`;
}

/**
 * The indexes serving `createIndex(keys, options)` on `table`:
 * - unique: a btree on the field's value, missing counted as null like MongoDB (so two documents without the
 *   field collide), or, sparse, only over documents that have the field;
 * - otherwise a GIN (jsonb_path_ops) index on the value of each key's top-level field, `(doc -> 'field')`, which
 *   serves the adapter's equality and `$in` tests on that field and below it, arrays included.
 */
export function indexPlans(
  collection: string,
  table: string,
  keys: Record<string, 1 | -1>,
  options: IndexOptions,
): IndexPlan[] {
  const fields = Object.keys(keys);
  if (options.unique) {
    const [field] = fields;
    const spec = `${field}_unique${options.sparse ? '_sparse' : ''}`;
    const name = options.name ?? indexName(collection, spec);
    const sql = options.sparse
      ? `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (${valueAt(field)}) WHERE ${valueAt(field)} IS NOT NULL`
      : `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (COALESCE(${valueAt(field)}, 'null'::jsonb))`;
    return [{ name, sql, fields }];
  }
  const topFields = [...new Set(fields.map((field) => field.split('.')[0]))];
  return topFields.map((top) => {
    const name = indexName(collection, `${top}_gin`);
    return {
      name,
      sql: `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} USING gin ((${fieldValue('doc', top)}) jsonb_path_ops)`,
      fields,
    };
  });
}
