/**
 * The DDL of the SQLite adapter: one table per collection, and the indexes of the port's `createIndex`. Every
 * statement is idempotent.
 */
import { createHash } from 'node:crypto';
import type { IndexOptions } from '../../../ports/store';
import { jsonPath } from './filter-sql';

/** A double-quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `doc` holds the whole document as JSON text, `_id` included; `id` is its `_id`. */
export function createTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`;
}

export interface IndexPlan {
  name: string;
  sql: string;
  /** The key fields, for DuplicateKeyError messages. */
  fields: string[];
}

/** A name derived from the collection and the index specification. */
function indexName(collection: string, spec: string): string {
  const hash = createHash('sha256').update(`${collection}\0${spec}`).digest('hex').slice(0, 10);
  const readable = `${collection}_${spec}`.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 40);
  return `${readable}_${hash}`;
}

/**
 * The indexes serving `createIndex(keys, options)` on `table`:
 * - unique: on the field's JSON text (`doc -> P`, so 1 and "1" differ), missing counted as null like MongoDB (two
 *   documents without the field collide), or, sparse, only over documents that have the field;
 * - and, unique or not, one on `(json_type(doc, P), json_extract(doc, P))` per key, the expressions ./filter-sql.ts writes
 *   its tests with: it serves equality, `$in` and numeric ranges on the field, and finds the documents whose
 *   field is an array (whose elements the query then tests).
 * A field SQLite's paths cannot name gets no index (its queries are answered by scanning).
 */
export function indexPlans(
  collection: string,
  table: string,
  keys: Record<string, 1 | -1>,
  options: IndexOptions,
): IndexPlan[] {
  const fields = Object.keys(keys);
  const typed = fields.flatMap((field) => {
    const path = jsonPath(field);
    if (!path) return [];
    const name = indexName(collection, `${field}_typed`);
    return [
      {
        name,
        sql: `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (json_type(doc, ${path}), json_extract(doc, ${path}))`,
        fields,
      },
    ];
  });
  if (options.unique) {
    const [field] = fields;
    const path = jsonPath(field);
    if (!path) throw new Error(`a unique index on '${field}' cannot be built by the SQLite engine`);
    const spec = `${field}_unique${options.sparse ? '_sparse' : ''}`;
    const name = options.name ?? indexName(collection, spec);
    const sql = options.sparse
      ? `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} ((doc -> ${path})) WHERE json_type(doc, ${path}) IS NOT NULL`
      : `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (COALESCE(doc -> ${path}, 'null'))`;
    // The unique index enforces; the typed one answers look-ups (filters are written on json_type/json_extract,
    // which the unique index's expression is not).
    return [{ name, sql, fields }, ...typed];
  }
  return typed;
}
