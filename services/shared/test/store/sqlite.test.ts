/**
 * What the SQLite adapter promises beyond the store contract (contract.test.ts): which filters SQL decides alone,
 * that its indexes serve them, the durability settings of the file, where `openStore` puts a service's file, and
 * that a killed process loses no acknowledged write.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Query } from 'mingo';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store/open';
import type { Filter } from '../../src/ports/store';
import { filterToSql } from '../../src/adapters/store/sqlite/filter-sql';
import { sortToSql } from '../../src/adapters/store/sqlite/sort-sql';
import { openSqliteStore, SqliteStore, sqliteStoreOf } from '../../src/adapters/store/sqlite';
import { killWriterMidway } from './killed-writer';

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
  store = openSqliteStore(join(dir, 'test.db'));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('filterToSql', () => {
  it.each<[string, Filter]>([
    ['the empty filter', {}],
    ['_id equality and $in', { _id: { $in: ['a', 'b'] } }],
    ['equality on a top-level field, arrays included', { tags: 'admin' }],
    ['$in of scalars', { state: { $in: ['private', 'published'] } }],
    ['numeric ranges', { age: { $gt: 20, $lte: 30 } }],
    ['booleans', { hidden: true }],
    ['$and and $or of exact parts', { $or: [{ a: 1 }, { b: 'x' }], c: { $in: [1, 2] } }],
    ['a string range with an ASCII bound', { modified: { $gt: '2000-01-01', $lte: '2030' } }],
    ['$ne and $nin of scalars', { deleted: { $ne: true }, type: { $nin: ['Image', 'File'] } }],
  ])('decides %s in SQL', (_name, filter) => {
    expect(filterToSql(filter).exact).toBe(true);
  });

  it.each<[string, Filter]>([
    ['a dotted path (an array on the way may hold the match)', { 'address.city': 'Paris' }],
    ['a regular expression', { name: /^a/ }],
    ['$ne on a dotted path', { 'a.b': { $ne: 30 } }],
    ['equality with null (a missing field matches too)', { nickname: null }],
    [
      'a string range with a non-ASCII bound (SQLite and JavaScript order such strings differently)',
      { name: { $gt: 'é' } },
    ],
    ['$or with an undecided part', { $or: [{ a: 1 }, { b: { $exists: true } }] }],
  ])('leaves %s to mingo', (_name, filter) => {
    expect(filterToSql(filter).exact).toBe(false);
  });
});

describe('SQLite store', () => {
  it('runs in WAL mode with synchronous=FULL and a busy timeout', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 is FULL: every commit is synced before the write is acknowledged.
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
  });

  it('answers an equality and a numeric range on an indexed field from its index', async () => {
    const items = store.collection('items');
    await items.createIndex({ state: 1 });
    await items.createIndex({ size: 1 });
    await items.insertOne({ _id: 'a', state: 'published', size: 3 });
    await items.insertOne({ _id: 'b', state: ['private', 'published'], size: [1, 9] });
    await items.insertOne({ _id: 'c', state: 'private', size: 5 });
    const plan = (filter: Filter) => {
      const { sql, values } = filterToSql(filter);
      return store.db
        .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "items" WHERE ${sql}`)
        .all(...values)
        .map((row) => (row as { detail: string }).detail)
        .join('\n');
    };
    expect(plan({ state: 'published' })).toMatch(/USING INDEX items_state_ranked/);
    expect(plan({ size: { $gt: 4 } })).toMatch(/USING INDEX items_size_ranked/);
    expect((await items.find({ state: 'published' })).map((doc) => doc._id).sort()).toEqual(['a', 'b']);
    expect((await items.find({ size: { $gt: 4 } })).map((doc) => doc._id).sort()).toEqual(['b', 'c']);
    expect(await items.countDocuments({ state: 'private' })).toBe(2);
  });

  it("reads a sorted page from the sort field's index, without sorting the matches", async () => {
    const items = store.collection('items');
    await items.createIndex({ modified: 1 });
    for (let i = 0; i < 20; i++)
      await items.insertOne({ _id: `d${i}`, modified: `2026-01-${String(i + 1).padStart(2, '0')}` });
    await items.insertOne({ _id: 'none' });
    const sql = sortToSql({ modified: -1 });
    const plan = store.db
      .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "items" WHERE 1 ORDER BY ${sql} LIMIT 3`)
      .all()
      .map((row) => (row as { detail: string }).detail)
      .join('\n');
    expect(plan).toMatch(/SCAN items USING INDEX items_modified_ranked/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    const page = await items.find({}, { sort: { modified: -1 }, skip: 1, limit: 3 });
    expect(page.map((doc) => doc._id)).toEqual(['d18', 'd17', 'd16']);
    // Missing sorts first, as in MongoDB.
    expect((await items.findOne({}, { sort: { modified: 1 } }))?._id).toBe('none');
  });

  it('answers a look-up of a unique field from an index', async () => {
    const items = store.collection('items');
    await items.createIndex({ path: 1 }, { unique: true, sparse: true });
    await items.insertOne({ _id: 'a', path: '/a' });
    await items.insertOne({ _id: 'b' });
    const { sql, values } = filterToSql({ path: '/a' });
    const plan = store.db
      .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "items" WHERE ${sql}`)
      .all(...values)
      .map((row) => (row as { detail: string }).detail)
      .join('\n');
    expect(plan).toMatch(/USING INDEX items_path_ranked/);
    expect(plan).not.toMatch(/SCAN items/);
    expect(await items.findOne({ path: '/a' })).toEqual({ _id: 'a', path: '/a' });
  });

  it('decides $ne and $nin in SQL as mingo does: missing fields, null, arrays and other types', async () => {
    const items = store.collection('items');
    await items.createIndex({ v: 1 });
    const values: unknown[] = [
      undefined,
      null,
      true,
      false,
      1,
      2,
      'a',
      'b',
      [],
      [1],
      [1, 2],
      ['a', true],
      [[1]],
      { x: 1 },
    ];
    for (const [i, v] of values.entries())
      await items.insertOne(v === undefined ? { _id: `d${i}` } : { _id: `d${i}`, v });
    const docs = await items.find({});
    for (const filter of [
      { v: { $ne: true } },
      { v: { $ne: 1 } },
      { v: { $ne: 'a' } },
      { v: { $nin: [1, 'a'] } },
      { v: { $nin: [true, 2] } },
      { v: { $ne: 1 }, _id: { $in: ['d4', 'd5', 'd9'] } },
    ]) {
      expect(filterToSql(filter).exact).toBe(true);
      const expected = new Query(filter)
        .find(docs)
        .all()
        .map((doc) => doc._id)
        .sort();
      const found = (await items.find(filter)).map((doc) => doc._id).sort();
      expect({ filter, found }).toEqual({ filter, found: expected });
      expect(await items.countDocuments(filter)).toBe(expected.length);
    }
  });

  it('orders strings against an ASCII bound as JavaScript does, whatever characters they hold', async () => {
    const items = store.collection('items');
    await items.createIndex({ name: 1 });
    // Astral characters (UTF-16 surrogates, below U+E000) and U+E000..U+FFFF are ordered one way by UTF-16 code
    // units and the other by UTF-8 bytes; against an ASCII bound both orders agree.
    const names = [
      '',
      'a',
      'a\u0000',
      'ab',
      'abc',
      'b',
      'B',
      '~',
      '\u007f',
      'é',
      '\ue000',
      '\uffff',
      '😀',
      'a😀',
      'a\ue000',
    ];
    for (const [i, name] of names.entries()) await items.insertOne({ _id: `n${i}`, name });
    for (const bound of ['', 'a', 'ab', 'b', '~', 'a\u0000']) {
      for (const op of ['$gt', '$gte', '$lt', '$lte'] as const) {
        const expected = names
          .filter((name) =>
            op === '$gt' ? name > bound : op === '$gte' ? name >= bound : op === '$lt' ? name < bound : name <= bound,
          )
          .sort();
        const found = (await items.find({ name: { [op]: bound } })).map((doc) => doc.name as string).sort();
        expect({ op, bound, found }).toEqual({ op, bound, found: expected });
      }
    }
  });

  it('commits the writes of one turn together, a failing one undoing only itself', async () => {
    const items = store.collection('items');
    await items.createIndex({ code: 1 }, { unique: true });
    await items.insertOne({ _id: 'taken', code: 'x', n: 0 });
    const commits = jest.spyOn(store.db, 'transaction');
    const outcomes = await Promise.allSettled([
      items.insertOne({ _id: 'a', code: 'a' }),
      items.insertOne({ _id: 'b', code: 'x' }), // the unique code is taken
      items.updateOne({ _id: 'taken' }, { $inc: { n: 1 } }),
      items.insertOne({ _id: 'a', code: 'again' }), // the first insert of this group holds the _id
      items.deleteMany({ code: 'nothing' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.name).toBe('DuplicateKeyError');
    expect((outcomes[3] as PromiseRejectedResult).reason.name).toBe('DuplicateKeyError');
    // One transaction for the group, and one savepoint for each of its five writes.
    expect(commits).toHaveBeenCalledTimes(6);
    commits.mockRestore();
    const docs = await items.find({}, { sort: { _id: 1 } });
    expect(docs).toEqual([
      { _id: 'a', code: 'a' },
      { _id: 'taken', code: 'x', n: 1 },
    ]);
  });

  it('commits the writes still queued when it is closed', async () => {
    const items = store.collection('items');
    const written = items.insertOne({ _id: 'late' });
    await store.close();
    await expect(written).resolves.toEqual({ insertedId: 'late' });
    store = openSqliteStore(join(dir, 'test.db'));
    expect(await store.collection('items').findOne({ _id: 'late' })).toEqual({ _id: 'late' });
  });

  it('keeps documents and indexes across a reopen', async () => {
    const items = store.collection('items');
    await items.createIndex({ email: 1 }, { unique: true });
    await items.insertOne({ _id: 'a', email: 'a@example.org', at: new Date('2026-01-02T03:04:05Z') });
    await store.close();
    store = openSqliteStore(join(dir, 'test.db'));
    const reopened = store.collection('items');
    // Like the PostgreSQL adapter, a Date is stored as its JSON text (the ISO string).
    expect(await reopened.findOne({ _id: 'a' })).toEqual({
      _id: 'a',
      email: 'a@example.org',
      at: '2026-01-02T03:04:05.000Z',
    });
    await expect(reopened.insertOne({ _id: 'b', email: 'a@example.org' })).rejects.toThrow(/duplicate key/);
  });
});

describe('openStore with a sqlite: URL', () => {
  it("opens the service's own file in the folder the URL names", async () => {
    const folder = join(dir, 'stores');
    const opened = await openStore({
      engine: { engine: 'sqlite', url: `sqlite://${folder}` },
      dataDir: '/nonexistent',
      dbName: 'cms_content',
    });
    try {
      expect(opened.kind).toBe('sqlite');
      expect(sqliteStoreOf(opened)?.file).toBe(join(folder, 'cms_content.db'));
      await opened.collection('items').insertOne({ _id: 'a' });
      expect(existsSync(join(folder, 'cms_content.db'))).toBe(true);
    } finally {
      await opened.close();
    }
  });
});

describe('a killed SQLite writer', () => {
  it('loses no acknowledged write', async () => {
    const file = join(dir, 'killed.db');
    const acknowledged = await killWriterMidway(
      'sqlite-kill-writer.js',
      [file, '100000'],
      join(__dirname, '../../dist/adapters/store/sqlite/index.js'),
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const reopened = openSqliteStore(file);
    try {
      expect(await reopened.collection('items').countDocuments({ _id: { $in: acknowledged } })).toBe(
        acknowledged.length,
      );
    } finally {
      await reopened.close();
    }
  });
});
