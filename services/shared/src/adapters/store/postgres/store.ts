/**
 * The PostgreSQL adapter of the store port. Each collection is a table `<schema>."<collection>"` with columns
 * `id text PRIMARY KEY, doc jsonb NOT NULL` (`doc` holds the whole document, `_id` included), created on first
 * use. Other modules may add columns of their own: this adapter reads `doc` only and inserts by column names.
 *
 * Filters run in SQL where they translate exactly (./filter-sql.ts); the rest is evaluated by mingo on the
 * candidates SQL returns, like the embedded adapter. Updates are applied by mingo too (MongoDB's semantics),
 * inside a transaction that holds the row lock from the match to the write, so no other write, from this
 * process or another, comes in between.
 */
import { find as mingoFind } from 'mingo';
import pg from 'pg';
import {
  applyUpdate,
  assertCount,
  buildUpsertDocument,
  deepClone,
  hasKeys,
  idFirst,
  matcher,
  project,
} from '../document-ops';
import {
  type Collection,
  type CountOptions,
  type CollectionStats,
  type Document,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexOptions,
  type SortSpec,
  type StoreStats,
  type Update,
  type UpdateResult,
} from '../../../ports/store';
import { assertSupportedIndex, assertSupportedUpdate, newDocumentId } from '../../../ports/store-rules';
import { adapterOf } from '../timed';
import { createSchemaSql, createTableSql, indexPlans, quoteIdentifier, runDdl } from './ddl';
import { splitFilter } from './filter-sql';
import { escapeJson, escapeText, unescapeJson } from './nul-escape';
import { sortToSql, unsortableCondition } from './sort-sql';

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const DEFAULT_POOL_SIZE = 10;
/** Times a single-document write looks for its match again when a concurrent write changed it first. */
const MATCH_ATTEMPTS = 50;
const DEADLOCK_DETECTED = '40P01';
const TRANSACTION_ATTEMPTS = 5;
/** How long a query waits for a connection before failing (the server away), rather than forever. */
const CONNECT_TIMEOUT_MS = 5_000;

type Queryable = pg.Pool | pg.PoolClient;
type Stored = Document & { _id: string };

interface PgErrorFields {
  code?: string;
  constraint?: string;
  detail?: string;
}

function pgErrorOf(err: unknown): PgErrorFields {
  return typeof err === 'object' && err !== null ? (err as PgErrorFields) : {};
}

/** Thrown inside an upsert's transaction when a concurrent upsert inserted the same `_id` first. */
class IdTaken extends Error {}

/** A stored document as the port returns it: `_id` first (jsonb keeps keys in an order of its own). */
function fromRow(row: { doc: Document }): Document {
  return idFirst(row.doc);
}

class PostgresCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly store: PostgresStore,
    readonly name: string,
  ) {}

  private table(): Promise<string> {
    return this.store.ensureTable(this.name);
  }

  /** A unique violation as the port's DuplicateKeyError; other errors as they are. */
  private duplicateKey(err: unknown, doc?: Document): unknown {
    const { code, constraint, detail } = pgErrorOf(err);
    if (code !== '23505') return err;
    if (constraint?.endsWith('_pkey') && doc)
      return new DuplicateKeyError(this.name, `_id: ${JSON.stringify(doc._id)}`);
    const fields = (constraint ? this.store.indexFields.get(constraint) : undefined) ?? [];
    // "Key (expression)=(value) already exists." The value is the document's own, bounded by the index.
    const value = /\)=\((.*)\) (?:already exists|is duplicated)/.exec(detail ?? '')?.[1] ?? '';
    return new DuplicateKeyError(this.name, `${fields.join(', ') || constraint || 'key'}: ${value.slice(0, 200)}`);
  }

  // ---------------------------------------------------------------------------
  // Reading
  // ---------------------------------------------------------------------------

  /** The matches in order, with skip and limit applied; whole documents. */
  private async select(
    db: Queryable,
    table: string,
    filter: Filter,
    options: { sort?: SortSpec; skip?: number; limit?: number; lock?: boolean } = {},
  ): Promise<Document[]> {
    const { sort, skip = 0, limit } = options;
    const split = splitFilter(filter, { column: 'doc', idColumn: 'id', firstParam: 1 });
    const sorted = hasKeys(sort);
    const sortSql = sorted ? sortToSql(sort, 'doc', 'id', split.values.length + 1) : undefined;
    const inSql =
      split.residual.length === 0 &&
      (!sorted || (sortSql !== undefined && !(await this.anyUnsortable(db, table, split, sort))));
    if (inSql) {
      const values = [...split.values, ...(sortSql?.values ?? [])];
      let sql = `SELECT doc FROM ${table} WHERE ${split.sql}`;
      // Locked in the order of the ids, the same for every writer, so that two never wait for each other.
      if (sortSql) sql += ` ORDER BY ${sortSql.orderBy}`;
      else if (options.lock) sql += ' ORDER BY id';
      if (skip) sql += ` OFFSET ${skip}`;
      if (limit) sql += ` LIMIT ${limit}`;
      if (options.lock) sql += ' FOR UPDATE';
      return (await db.query<{ doc: Document }>(sql, values)).rows.map(fromRow);
    }
    const { rows } = await db.query<{ doc: Document }>(
      `SELECT doc FROM ${table} WHERE ${split.sql}${options.lock ? ' ORDER BY id FOR UPDATE' : ''}`,
      split.values,
    );
    let docs = rows.map(fromRow);
    if (split.residual.length) {
      const residual = matcher(split.residual.length === 1 ? split.residual[0] : { $and: split.residual });
      docs = docs.filter((doc) => residual.test(doc));
    }
    if (!sorted) return docs.slice(skip, limit ? skip + limit : undefined);
    // mingo orders arrays and mixed types like MongoDB.
    let cursor = mingoFind<Document>(docs, {}).sort(sort);
    if (skip) cursor = cursor.skip(skip);
    if (limit) cursor = cursor.limit(limit);
    return cursor.all();
  }

  /** Whether some match has a sort value PostgreSQL would not order like MongoDB. */
  private async anyUnsortable(
    db: Queryable,
    table: string,
    split: { sql: string; values: unknown[] },
    sort: SortSpec,
  ): Promise<boolean> {
    const unsortable = unsortableCondition(sort, 'doc', split.values.length + 1);
    if (unsortable.sql === 'FALSE') return false;
    const { rows } = await db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${table} WHERE ${split.sql} AND (${unsortable.sql})) AS found`,
      [...split.values, ...unsortable.values],
    );
    return rows[0].found;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sort, skip, limit, projection } = options;
    assertCount('skip', skip);
    assertCount('limit', limit);
    const docs = await this.select(this.store.pool, await this.table(), filter, { sort, skip, limit });
    return (hasKeys(projection) ? docs.map((doc) => project(doc, projection)) : docs) as T[];
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async countDocuments(filter: Filter, options: CountOptions = {}): Promise<number> {
    const { limit } = options;
    assertCount('limit', limit);
    const table = await this.table();
    const split = splitFilter(filter, { column: 'doc', idColumn: 'id', firstParam: 1 });
    if (split.residual.length) {
      const { length } = await this.select(this.store.pool, table, filter);
      return limit ? Math.min(length, limit) : length;
    }
    const { rows } = await this.store.pool.query<{ count: string }>(
      limit
        ? `SELECT count(*) AS count FROM (SELECT 1 FROM ${table} WHERE ${split.sql} LIMIT ${limit}) AS counted`
        : `SELECT count(*) AS count FROM ${table} WHERE ${split.sql}`,
      split.values,
    );
    return Number(rows[0].count);
  }

  // ---------------------------------------------------------------------------
  // Writing
  // ---------------------------------------------------------------------------

  private async insertInto(db: Queryable, table: string, doc: Stored): Promise<void> {
    try {
      await db.query(`INSERT INTO ${table} (id, doc) VALUES ($1, $2::jsonb)`, [
        escapeText(doc._id),
        escapeJson(JSON.stringify(doc)),
      ]);
    } catch (err) {
      throw this.duplicateKey(err, doc);
    }
  }

  private async write(db: Queryable, table: string, doc: Document): Promise<void> {
    try {
      await db.query(`UPDATE ${table} SET doc = $2::jsonb WHERE id = $1`, [
        escapeText(String(doc._id)),
        escapeJson(JSON.stringify(doc)),
      ]);
    } catch (err) {
      throw this.duplicateKey(err);
    }
  }

  async insertOne(doc: T): Promise<{ insertedId: string }> {
    const { _id, ...rest } = doc;
    const prepared = { _id: String(_id ?? newDocumentId()), ...rest };
    await this.insertInto(this.store.pool, await this.table(), prepared);
    return { insertedId: prepared._id };
  }

  /**
   * The first match in sort order, locked until the transaction ends. The match is looked for without a lock,
   * then locked by id and tested again: a concurrent write may have changed it meanwhile, and then the search
   * starts over.
   */
  private async lockFirst(client: pg.PoolClient, table: string, filter: Filter, sort?: SortSpec) {
    const matches = matcher(filter);
    if (!hasKeys(sort)) {
      const split = splitFilter(filter, { column: 'doc', idColumn: 'id', firstParam: 1 });
      if (split.residual.length === 0) {
        // All in SQL: one statement finds and locks the first match; PostgreSQL tests a row changed meanwhile
        // again, and takes the next match if it no longer matches.
        const { rows } = await client.query<{ doc: Document }>(
          `SELECT doc FROM ${table} WHERE ${split.sql} LIMIT 1 FOR UPDATE`,
          split.values,
        );
        if (rows.length === 0) return undefined;
        const locked = fromRow(rows[0]);
        if (matches.test(locked)) return locked;
      }
    }
    for (let attempt = 0; attempt < MATCH_ATTEMPTS; attempt += 1) {
      const [candidate] = await this.select(client, table, filter, { sort, limit: 1 });
      if (!candidate) return undefined;
      const { rows } = await client.query<{ doc: Document }>(`SELECT doc FROM ${table} WHERE id = $1 FOR UPDATE`, [
        escapeText(String(candidate._id)),
      ]);
      const locked = rows[0] && fromRow(rows[0]);
      if (locked && matches.test(locked)) return locked;
    }
    throw new Error(`${this.name}: the match kept changing under concurrent writes`);
  }

  /**
   * One document updated (or upserted) atomically; returns it before and after. An upsert that loses the race to
   * insert the same `_id` starts over once, then finds and updates the winner's document, like MongoDB's retry.
   */
  private async updateFirst(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: SortSpec },
  ): Promise<{ before?: Document; after?: Document; modified: boolean; upserted?: string }> {
    assertSupportedUpdate(update);
    const table = await this.table();
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.store.transaction(async (client) => {
          const doc = await this.lockFirst(client, table, filter, options.sort);
          if (!doc) {
            if (!options.upsert) return { modified: false };
            const inserted = buildUpsertDocument(filter, update) as Stored;
            try {
              await this.insertInto(client, table, inserted);
            } catch (err) {
              if (err instanceof DuplicateKeyError && err.key.startsWith('_id:') && attempt === 0) throw new IdTaken();
              throw err;
            }
            return { after: inserted, modified: false, upserted: inserted._id };
          }
          const before = deepClone(doc);
          const modified = applyUpdate(doc, update);
          if (modified) await this.write(client, table, doc);
          return { before, after: doc, modified };
        });
      } catch (err) {
        if (!(err instanceof IdTaken)) throw err;
      }
    }
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const result = await this.updateFirst(filter, update, { upsert: options.upsert });
    if (result.upserted !== undefined) return { matchedCount: 0, modifiedCount: 0, upsertedId: result.upserted };
    return { matchedCount: result.after ? 1 : 0, modifiedCount: result.modified ? 1 : 0, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const result = await this.updateFirst(filter, update, { upsert: options.upsert, sort: options.sort });
    const doc = options.returnDocument === 'before' ? result.before : result.after;
    return doc ? (project(doc, options.projection) as T) : null;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertSupportedUpdate(update);
    const table = await this.table();
    return this.store.transaction(async (client) => {
      // Locked in one statement; PostgreSQL re-tests the SQL part on rows changed meanwhile, mingo the rest.
      const docs = await this.select(client, table, filter, { lock: true });
      const matches = matcher(filter);
      let matchedCount = 0;
      let modifiedCount = 0;
      for (const doc of docs) {
        if (!matches.test(doc)) continue;
        matchedCount += 1;
        if (!applyUpdate(doc, update)) continue;
        await this.write(client, table, doc);
        modifiedCount += 1;
      }
      return { matchedCount, modifiedCount, upsertedId: null };
    });
  }

  private async remove(filter: Filter, one: boolean): Promise<number> {
    const table = await this.table();
    const split = splitFilter(filter, { column: 'doc', idColumn: 'id', firstParam: 1 });
    if (!one && split.residual.length === 0) {
      const { rowCount } = await this.store.pool.query(`DELETE FROM ${table} WHERE ${split.sql}`, split.values);
      return rowCount ?? 0;
    }
    const matches = matcher(filter);
    return this.store.transaction(async (client) => {
      const docs = one
        ? [await this.lockFirst(client, table, filter)].filter((doc): doc is Document => doc !== undefined)
        : (await this.select(client, table, filter, { lock: true })).filter((doc) => matches.test(doc));
      if (docs.length === 0) return 0;
      const { rowCount } = await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [
        docs.map((doc) => escapeText(String(doc._id))),
      ]);
      return rowCount ?? 0;
    });
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.remove(filter, true) };
  }

  async deleteMany(filter: Filter): Promise<{ deletedCount: number }> {
    return { deletedCount: await this.remove(filter, false) };
  }

  async createIndex(keys: Record<string, 1 | -1>, options: IndexOptions = {}): Promise<void> {
    assertSupportedIndex(keys, options);
    const table = await this.table();
    for (const plan of indexPlans(this.name, table, keys, options)) {
      this.store.indexFields.set(plan.name, plan.fields);
      try {
        await runDdl(this.store.pool, plan.sql);
      } catch (err) {
        throw this.duplicateKey(err);
      }
    }
  }
}

export interface PostgresStoreOptions {
  /** The schema holding the collections' tables; created on open. */
  schema: string;
}

/** The store on PostgreSQL: one schema, a table per collection. */
export class PostgresStore implements DocumentStore {
  readonly kind = 'postgres' as const;
  /** Index names to their key fields, for DuplicateKeyError messages. */
  readonly indexFields = new Map<string, string[]>();
  private readonly tables = new Map<string, Promise<string>>();
  private readonly collections = new Map<string, PostgresCollection<Document>>();

  constructor(
    readonly pool: pg.Pool,
    readonly schema: string,
  ) {}

  /** Creates the collection's table unless it exists; resolves to its fully quoted name. */
  ensureTable(collection: string): Promise<string> {
    if (!COLLECTION_NAME.test(collection)) {
      return Promise.reject(new Error(`invalid collection name: ${JSON.stringify(collection.slice(0, 100))}`));
    }
    let table = this.tables.get(collection);
    if (!table) {
      const name = `${quoteIdentifier(this.schema)}.${quoteIdentifier(collection)}`;
      table = runDdl(this.pool, createTableSql(name)).then(() => name);
      // A failure (the server away) is not remembered: the next use tries again.
      table.catch(() => this.tables.delete(collection));
      this.tables.set(collection, table);
    }
    return table;
  }

  collection<T extends Document = Document>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      if (!COLLECTION_NAME.test(name))
        throw new Error(`invalid collection name: ${JSON.stringify(name.slice(0, 100))}`);
      collection = new PostgresCollection<Document>(this, name);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /**
   * Runs `work` in a transaction on one connection: committed if it resolves, rolled back if it throws. A
   * transaction PostgreSQL chose as a deadlock's victim is run again (its work re-reads what it writes).
   */
  async transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.transactionOnce(work);
      } catch (err) {
        if (pgErrorOf(err).code !== DEADLOCK_DETECTED || attempt >= TRANSACTION_ATTEMPTS) throw err;
      }
    }
  }

  private async transactionOnce<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError;
      });
      throw err;
    } finally {
      // A connection that cannot even roll back is discarded, not reused.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /**
   * The schema's tables: documents counted exactly (the planner's estimate may be far off right after a load),
   * size with indexes and TOAST as PostgreSQL accounts it, indexes besides the primary key.
   */
  async stats(): Promise<StoreStats> {
    const tables = await this.pool.query<{ name: string; size: string; indexes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS size,
              (SELECT count(*) FROM pg_index i WHERE i.indrelid = c.oid AND NOT i.indisprimary)::text AS indexes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r'
        ORDER BY c.relname`,
      [this.schema],
    );
    const collections: CollectionStats[] = [];
    for (const table of tables.rows) {
      if (!COLLECTION_NAME.test(table.name)) continue;
      const name = `${quoteIdentifier(this.schema)}.${quoteIdentifier(table.name)}`;
      const count = await this.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${name}`);
      collections.push({
        name: table.name,
        documents: Number(count.rows[0].n),
        indexes: Number(table.indexes),
        sizeBytes: Number(table.size),
      });
    }
    return {
      engine: 'postgres',
      name: this.schema,
      sizeBytes: collections.reduce((sum, c) => sum + c.sizeBytes!, 0),
      collections,
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

const JSONB_OID = 3802;

/** pg's own type parsers, but jsonb read back with U+0000 unescaped (./nul-escape.ts). */
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === JSONB_OID
    ? (text: string) => JSON.parse(unescapeJson(text)) as unknown
    : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'];

/** The pool size: `?max=` in the URL (removed before pg reads the URL), else 10. */
function poolOptions(url: string): pg.PoolConfig {
  const parsed = new URL(url);
  const max = parsed.searchParams.get('max');
  parsed.searchParams.delete('max');
  const size = max === null ? DEFAULT_POOL_SIZE : Number(max);
  if (!Number.isInteger(size) || size < 1)
    throw new Error('the max parameter of a PostgreSQL URL must be a positive integer');
  return {
    connectionString: parsed.toString(),
    max: size,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    types: { getTypeParser },
  };
}

/** Connects to PostgreSQL at `url` and creates the schema unless it exists. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
  if (!SCHEMA_NAME.test(options.schema))
    throw new Error(`invalid schema name: ${JSON.stringify(options.schema.slice(0, 100))}`);
  const pool = new pg.Pool(poolOptions(url));
  // An idle connection that breaks (the server restarted) is dropped by the pool; without a listener it would
  // crash the process.
  pool.on('error', () => undefined);
  try {
    await runDdl(pool, createSchemaSql(options.schema));
  } catch (err) {
    await pool.end();
    throw err;
  }
  return new PostgresStore(pool, options.schema);
}

/** The PostgreSQL adapter behind `store` (timed or not), or undefined when the store runs on another engine. */
export function postgresStoreOf(store: DocumentStore): PostgresStore | undefined {
  const adapter = adapterOf(store);
  return adapter instanceof PostgresStore ? adapter : undefined;
}
