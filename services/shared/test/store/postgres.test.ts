/**
 * What the PostgreSQL adapter promises beyond the store contract (contract.test.ts): which filters run in SQL,
 * that its indexes serve them, its table layout and DDL under concurrent processes, its pool settings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/postgres';
import { DuplicateKeyError, type Filter } from '../../src/ports/store';
import { openStore } from '../../src/adapters/store/open';
import { filterToSql, openPostgresStore, PostgresStore, postgresStoreOf } from '../../src/adapters/store/postgres';

let database: TestDatabase;
let url: string;
let store: PostgresStore;
let sequence = 0;
const fresh = () => `pg_${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase('store_postgres');
  url = database.url;
  store = await openPostgresStore(url, { schema: 'adapter_test' });
});

afterAll(async () => {
  await store?.close();
  await database?.dispose();
});

describe('filterToSql', () => {
  const options = { column: 'doc', firstParam: 1 };

  it.each<[string, Filter]>([
    ['equality', { path: '/a' }],
    ['dotted equality', { 'meta.kind': 'page' }],
    ['null', { expires: null }],
    ['ranges', { n: { $gte: 1, $lt: 5 } }],
    ['$in and $nin', { state: { $in: ['a', 'b'] }, tags: { $nin: ['x'] } }],
    ['$exists', { a: { $exists: false } }],
    ['a plain regular expression', { title: /^Hello wor/i }],
    ['$all and $size', { tags: { $all: ['a', 'b'], $size: 2 } }],
    ['$or, $nor and $not', { $or: [{ a: 1 }, { $nor: [{ b: 2 }] }], c: { $not: { $gt: 3 } } }],
    ['a whole array', { tags: ['a', 'b'] }],
  ])('translates %s', (_label, filter) => {
    const translated = filterToSql(filter, options);
    expect(translated).not.toBeNull();
    expect(translated!.sql).toMatch(/\$1\b/);
  });

  it.each<[string, Filter]>([
    ['$elemMatch', { items: { $elemMatch: { a: 1 } } }],
    ['a positional path', { 'items.0.a': 1 }],
    ['equality with a document', { meta: { kind: 'page' } }],
    ['a regular expression PostgreSQL reads otherwise', { title: /\bword\d/ }],
    ['an unknown operator', { a: { $where: 'x' } }],
  ])('leaves %s untranslated (null)', (_label, filter) => {
    expect(filterToSql(filter, options)).toBeNull();
  });

  it('numbers its parameters from firstParam and uses the id column for _id when given', () => {
    const translated = filterToSql(
      { _id: { $in: ['a', 'b'] }, n: 1 },
      { column: 't.doc', firstParam: 4, idColumn: 't.id' },
    );
    expect(translated!.sql).toContain('t.id = ANY($4::text[])');
    expect(translated!.sql).toContain('$5::jsonpath');
    expect(translated!.values).toEqual([['a', 'b'], '$ ? (@ == 1)']);
  });

  it('gives the matches of the filter when run on the table', async () => {
    const collection = store.collection(fresh());
    await collection.insertOne({ _id: 'a', tags: ['x', 'y'], n: 1 });
    await collection.insertOne({ _id: 'b', tags: ['y'], n: 2 });
    await collection.insertOne({ _id: 'c', n: 3 });
    const table = await store.ensureTable(collection.name);
    const idsOf = async (filter: Filter) => {
      const { sql, values } = filterToSql(filter, { column: 'doc', firstParam: 1 })!;
      const { rows } = await store.pool.query(`SELECT id FROM ${table} WHERE ${sql} ORDER BY id`, values);
      return rows.map((row: { id: string }) => row.id);
    };
    expect(await idsOf({ tags: 'y', n: { $gt: 1 } })).toEqual(['b']);
    expect(await idsOf({ tags: { $ne: 'x' } })).toEqual(['b', 'c']);
    expect(await idsOf({ $nor: [{ tags: { $exists: true } }] })).toEqual(['c']);
  });
});

describe('tables and indexes', () => {
  it('keeps documents as `id text PRIMARY KEY, doc jsonb` in the schema, and tolerates columns added by others', async () => {
    const collection = store.collection(fresh());
    await collection.insertOne({ _id: 'one', title: 'T' });
    const table = await store.ensureTable(collection.name);
    expect(table).toBe(`"adapter_test"."${collection.name}"`);
    const { rows } = await store.pool.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      ['adapter_test', collection.name],
    );
    expect(rows).toEqual([
      { column_name: 'id', data_type: 'text' },
      { column_name: 'doc', data_type: 'jsonb' },
    ]);
    await store.pool.query(`ALTER TABLE ${table} ADD COLUMN extra tsvector`);
    await collection.insertOne({ _id: 'two', title: 'U' });
    await collection.updateOne({ _id: 'one' }, { $set: { title: 'V' } });
    expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'one', title: 'V' },
      { _id: 'two', title: 'U' },
    ]);
  });

  it('creates tables and indexes once when several processes race to', async () => {
    const name = fresh();
    const others = await Promise.all([1, 2, 3].map(() => openPostgresStore(url, { schema: 'adapter_test' })));
    try {
      const everyone = [store, ...others];
      await Promise.all(everyone.map((each) => each.ensureTable(name)));
      await Promise.all(everyone.map((each) => each.collection(name).createIndex({ path: 1 }, { unique: true })));
      await Promise.all(everyone.map((each) => each.collection(name).createIndex({ tags: 1, at: -1 })));
      // A new schema raced for too.
      const schemas = await Promise.all(
        [1, 2].map(() => openPostgresStore(url, { schema: `adapter_race_${sequence}` })),
      );
      await Promise.all(schemas.map((each) => each.close()));
    } finally {
      await Promise.all(others.map((each) => each.close()));
    }
    const { rows } = await store.pool.query(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2`,
      ['adapter_test', name],
    );
    // The primary key, the unique index, and a GIN index on each of `tags` and `at`.
    expect(rows).toHaveLength(4);
  });

  it('answers equality tests on an indexed field from its index', async () => {
    const collection = store.collection(fresh());
    await collection.createIndex({ parent: 1 });
    const table = await store.ensureTable(collection.name);
    await store.pool.query(
      `INSERT INTO ${table} (id, doc) SELECT 'd' || i, jsonb_build_object('_id', 'd' || i, 'parent', 'p' || (i % 500), 'tags', jsonb_build_array('t' || (i % 7))) FROM generate_series(1, 5000) AS i`,
    );
    await store.pool.query(`ANALYZE ${table}`);
    const { sql, values } = filterToSql({ parent: 'p42' }, { column: 'doc', firstParam: 1 })!;
    const { rows } = await store.pool.query(`EXPLAIN SELECT doc FROM ${table} WHERE ${sql}`, values);
    const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan/);
    expect(await collection.countDocuments({ parent: 'p42' })).toBe(10);
  });

  it('names the field and the value in a unique violation', async () => {
    const collection = store.collection(fresh());
    await collection.createIndex({ login: 1 }, { unique: true });
    await collection.insertOne({ login: 'ann' });
    const error = await collection.insertOne({ login: 'ann' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DuplicateKeyError);
    expect((error as DuplicateKeyError).key).toBe('login: "ann"');
  });
});

describe('connections', () => {
  it('takes the pool size from the URL, 10 by default', async () => {
    const sized = await openPostgresStore(`${url}?max=3`, { schema: 'adapter_test' });
    try {
      expect(sized.pool.options.max).toBe(3);
      await sized.ping();
    } finally {
      await sized.close();
    }
    expect(store.pool.options.max).toBe(10);
    await expect(openPostgresStore(`${url}?max=none`, { schema: 'adapter_test' })).rejects.toThrow(/max/);
  });

  it('refuses schema and collection names that are not plain identifiers', async () => {
    await expect(openPostgresStore(url, { schema: 'a"; DROP' })).rejects.toThrow(/invalid schema name/);
    expect(() => store.collection('a"b')).toThrow(/invalid collection name/);
  });

  it('fails ping once closed', async () => {
    const other = await openPostgresStore(url, { schema: 'adapter_test' });
    await other.close();
    await expect(other.ping()).rejects.toThrow();
  });
});

describe('postgresStoreOf', () => {
  it('finds the adapter behind a service store, and nothing behind another engine', async () => {
    const opened = await openStore({
      engine: { engine: 'postgres', url },
      dataDir: '/nonexistent',
      dbName: 'adapter_test',
    });
    try {
      const adapter = postgresStoreOf(opened);
      expect(adapter).toBeInstanceOf(PostgresStore);
      expect(adapter!.schema).toBe('adapter_test');
      expect(opened.kind).toBe('postgres');
    } finally {
      await opened.close();
    }
    const dir = mkdtempSync(join(tmpdir(), 'store-postgres-'));
    const embedded = await openStore({ dataDir: dir });
    try {
      expect(postgresStoreOf(embedded)).toBeUndefined();
    } finally {
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
