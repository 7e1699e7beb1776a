/**
 * The DDL of the SQLite adapter: one table per collection, and the indexes of the port's `createIndex`. Every
 * statement is idempotent.
 */
import { createHash } from 'node:crypto';
import type { IndexOptions } from '../../../ports/store';
import { jsonPath, typeRank } from './filter-sql';

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
  /** An index this one takes the place of, dropped when it is made. */
  replaces?: string;
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
 * - and, unique or not, one on `(typeRank(P), json_extract(doc, P), id)` per key, the expressions ./filter-sql.ts
 *   writes its tests with and ./sort-sql.ts its order: it serves equality, `$in` and ranges on the field, a page
 *   sorted by it, and finds the documents whose field is an array (whose elements the query then tests).
 * A field SQLite's paths cannot name gets no index (its queries are answered by scanning).
 */
export function indexPlans(
  collection: string,
  table: string,
  keys: Record<string, 1 | -1>,
  options: IndexOptions,
): IndexPlan[] {
  const fields = Object.keys(keys);
  const ranked = fields.flatMap((field) => {
    const path = jsonPath(field);
    if (!path) return [];
    const name = indexName(collection, `${field}_ranked`);
    return [
      {
        name,
        sql: `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (${typeRank(path)}, json_extract(doc, ${path}), id)`,
        fields,
        // Its form before the type rank (it answered equality but no sort), dropped where a store still has it.
        replaces: indexName(collection, `${field}_typed`),
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
    // The unique index enforces; the ranked one answers look-ups (filters are written on the type rank and
    // json_extract, which the unique index's expression is not).
    return [{ name, sql, fields }, ...ranked];
  }
  return ranked;
}
