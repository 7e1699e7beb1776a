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

/**
 * The side table of a multikey index keeps the scalar elements of the arrays a top-level field holds, one row per
 * (element, document), with the element's json_type: `(type, value, doc_id)`, its primary key, serves equality,
 * `$in` and ranges on the elements, and an index on `doc_id` serves the deletes and the tests of one document's
 * elements (`doc_id`, not `id`, so that a subquery on the side table names the collection's `id` unqualified). Its
 * name is the collection's, `$mk$` and the field's: collection names have no `$`, so the prefix finds a
 * collection's side tables and the rest is the field.
 */
const SIDE_TABLE_MARK = '$mk$';

/** The json_each types the side tables keep (what ./filter-sql.ts compares elements to: no null, object, array). */
const ELEMENT_TYPES = "('text', 'integer', 'real', 'true', 'false')";

/** The side table of `field`; its index and triggers are named `<collection>$mk:<what>$<field>`. */
export function sideTableName(collection: string, field: string): string {
  return `${collection}${SIDE_TABLE_MARK}${field}`;
}

/** The field a side table of `collection` serves, or undefined when `table` is not one of its side tables. */
export function sideTableField(collection: string, table: string): string | undefined {
  const prefix = `${collection}${SIDE_TABLE_MARK}`;
  return table.startsWith(prefix) && table.length > prefix.length ? table.slice(prefix.length) : undefined;
}

/** A field a side table can serve: top-level (an array on a dotted path's way is left to mingo) and nameable. */
export function multikeyField(field: string): boolean {
  return !field.includes('.') && jsonPath(field) !== undefined;
}

export interface SideTablePlan {
  /** The side table's name. */
  name: string;
  /** Creates it (idempotent). */
  createTable: string;
  /**
   * Fills it from the rows already in the collection (once, when the table is new), in its key's order: about a
   * third faster than in the collection's order, before its other index is there to be written too.
   */
  fill: string;
  /** Create its index on `doc_id` and the triggers keeping it exact (idempotent). */
  maintain: string[];
}

/**
 * The side table of `field` and the triggers that keep it exact on every write to the collection's table, in the
 * transaction of that write: the adapter's write code does not know about it. The update trigger rewrites the
 * document's rows only when the field's JSON changed.
 */
export function sideTablePlan(collection: string, table: string, field: string): SideTablePlan {
  const path = jsonPath(field);
  if (!path || !multikeyField(field)) throw new Error(`no side table can serve '${field}'`);
  const name = sideTableName(collection, field);
  const side = quoteIdentifier(name);
  // `<collection>$mk:<what>$<field>`: no side table has such a name (its field would follow `$mk$`).
  const companion = (what: string) => quoteIdentifier(`${collection}$mk:${what}$${field}`);
  // No declared type for `value`: a column declared ANY would have numeric affinity and turn '12' into 12.
  const elementsOf = (row: string) =>
    `INSERT OR IGNORE INTO ${side} (type, value, doc_id) SELECT type, value, ${row}.id FROM json_each(${row}.doc, ${path}) ` +
    `WHERE json_type(${row}.doc, ${path}) = 'array' AND type IN ${ELEMENT_TYPES};`;
  return {
    name,
    createTable:
      `CREATE TABLE IF NOT EXISTS ${side} (type TEXT NOT NULL, value NOT NULL, doc_id TEXT NOT NULL, ` +
      'PRIMARY KEY (type, value, doc_id)) WITHOUT ROWID',
    fill:
      `INSERT OR IGNORE INTO ${side} (type, value, doc_id) SELECT element.type, element.value, t.id ` +
      `FROM ${table} AS t, json_each(t.doc, ${path}) AS element ` +
      `WHERE json_type(t.doc, ${path}) = 'array' AND element.type IN ${ELEMENT_TYPES} ORDER BY 1, 2, 3`,
    maintain: [
      `CREATE INDEX IF NOT EXISTS ${companion('doc_id')} ON ${side} (doc_id)`,
      `CREATE TRIGGER IF NOT EXISTS ${companion('insert')} AFTER INSERT ON ${table} ` +
        `WHEN json_type(new.doc, ${path}) = 'array' BEGIN ${elementsOf('new')} END`,
      `CREATE TRIGGER IF NOT EXISTS ${companion('update')} AFTER UPDATE ON ${table} ` +
        `WHEN old.id IS NOT new.id OR (old.doc -> ${path}) IS NOT (new.doc -> ${path}) ` +
        `BEGIN DELETE FROM ${side} WHERE doc_id = old.id; ${elementsOf('new')} END`,
      `CREATE TRIGGER IF NOT EXISTS ${companion('delete')} AFTER DELETE ON ${table} ` +
        `WHEN json_type(old.doc, ${path}) = 'array' BEGIN DELETE FROM ${side} WHERE doc_id = old.id; END`,
    ],
  };
}

/** The name of the type-rank index of `field` (see `indexPlans`). */
export function rankedIndexName(collection: string, field: string): string {
  return indexName(collection, `${field}_ranked`);
}

/** The name of the type-rank index of a compound key, on each of its fields in turn (see `indexPlans`). */
export function compoundIndexName(collection: string, fields: readonly string[]): string {
  return indexName(collection, `${fields.join(',')}_ranked`);
}

/** The name of the partial index of the documents holding an array at `prefix` (see `indexPlans`). */
export function arraysIndexName(collection: string, prefix: string): string {
  return indexName(collection, `${prefix}_arrays`);
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
 * A compound key also gets one index on each of its fields' type rank and value in turn, then `id`: a page of the
 * documents holding one value of the first field sorted by the second (a folder's items by position) walks it and
 * reads the page's rows only.
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
    const name = rankedIndexName(collection, field);
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
  const paths = fields.map(jsonPath);
  const compound =
    fields.length > 1 && paths.every((path) => path !== undefined)
      ? [
          {
            name: compoundIndexName(collection, fields),
            sql:
              `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(compoundIndexName(collection, fields))} ON ${table} ` +
              `(${paths.map((path) => `${typeRank(path!)}, json_extract(doc, ${path})`).join(', ')}, id)`,
            fields,
          },
        ]
      : [];
  // A partial index per proper prefix of a dotted key, holding the documents with an array there (almost none), for
  // the test of an array on the key's way (./filter-sql.ts) to read instead of every document.
  const arraysOnTheWay = fields.flatMap((field) => {
    const segments = field.split('.');
    return segments.slice(0, -1).flatMap((_, i) => {
      const prefix = segments.slice(0, i + 1).join('.');
      const path = jsonPath(prefix);
      if (!path || !jsonPath(field)) return [];
      const name = arraysIndexName(collection, prefix);
      const sql = `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (id) WHERE json_type(doc, ${path}) = 'array'`;
      return [{ name, sql, fields }];
    });
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
    return [{ name, sql, fields }, ...ranked, ...compound, ...arraysOnTheWay];
  }
  return [...ranked, ...compound, ...arraysOnTheWay];
}
