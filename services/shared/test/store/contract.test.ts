/**
 * One contract for every adapter of the store port. The embedded adapter, SQLite (a
 * file in a throwaway folder) and PostgreSQL (PG_URL, default the local server's `test` database; a throwaway
 * database per run) are always tested; MongoDB too when MONGO_URL is set (in a
 * throwaway database).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import { markHolderCrashed } from './crashed-holder';
import { killWriterMidway } from './killed-writer';
import { openMongoStore } from '../../src/adapters/store/mongo/mongo-store';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/postgres';
import { openStore } from '../../src/adapters/store/open';
import { openPostgresStore } from '../../src/adapters/store/postgres';
import { openSqliteStore } from '../../src/adapters/store/sqlite';
import {
  type Collection,
  type Document,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
} from '../../src/ports/store';

interface Adapter {
  name: string;
  open(): Promise<DocumentStore>;
  /** Another client of the same data (another process would be one), for a server engine. */
  openPeer?(): Promise<DocumentStore>;
  cleanup(): Promise<void>;
}

function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'store-contract-'));
}

function embeddedAdapter(): Adapter {
  let dir: string | undefined;
  return {
    name: 'embedded',
    async open() {
      dir = await tempDir();
      return openEmbeddedStore(dir);
    },
    async cleanup() {
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

function sqliteAdapter(): Adapter {
  let dir: string | undefined;
  return {
    name: 'sqlite',
    async open() {
      dir = await tempDir();
      return openSqliteStore(path.join(dir, 'contract.db'));
    },
    // Another connection to the same file, as another process would open it.
    openPeer: async () => openSqliteStore(path.join(dir!, 'contract.db')),
    async cleanup() {
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

function mongoAdapter(url: string): Adapter {
  const dbName = `store_contract_${process.pid}_${Date.now()}`;
  return {
    name: 'mongodb',
    open: () => openMongoStore(url, dbName),
    openPeer: () => openMongoStore(url, dbName),
    async cleanup() {
      const client = new MongoClient(url);
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

function postgresAdapter(): Adapter {
  let database: TestDatabase | undefined;
  return {
    name: 'postgres',
    async open() {
      database = await createTestDatabase('store_contract');
      return openPostgresStore(database.url, { schema: 'contract' });
    },
    openPeer: () => openPostgresStore(database!.url, { schema: 'contract' }),
    async cleanup() {
      await database?.dispose();
    },
  };
}

const adapters: Adapter[] = [embeddedAdapter(), sqliteAdapter(), postgresAdapter()];
if (process.env.MONGO_URL) adapters.push(mongoAdapter(process.env.MONGO_URL));

const ids = (docs: Document[]): string[] => docs.map((doc) => String(doc._id)).sort();

const PEOPLE: Document[] = [
  {
    _id: 'p1',
    name: 'Alice',
    age: 30,
    tags: ['admin', 'editor'],
    address: { city: 'Paris', zip: '75001' },
    scores: [80, 95],
    items: [
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 5 },
    ],
  },
  {
    _id: 'p2',
    name: 'bob',
    age: 25,
    tags: ['editor'],
    address: { city: 'Berlin' },
    scores: [70],
    items: [{ sku: 'a', qty: 10 }],
  },
  { _id: 'p3', name: 'Carol', age: 35, tags: [], scores: [], items: [], nickname: null },
  {
    _id: 'p4',
    name: 'dave',
    age: 30,
    tags: ['viewer', 'admin'],
    address: { city: 'Paris' },
    scores: [60, 99],
    items: [{ sku: 'c', qty: 2 }],
  },
];

const QUERIES: [string, Filter, string[]][] = [
  ['empty filter', {}, ['p1', 'p2', 'p3', 'p4']],
  ['equality', { age: 30 }, ['p1', 'p4']],
  ['equality on an array field matches an element', { tags: 'admin' }, ['p1', 'p4']],
  ['equality with an array matches the whole array', { tags: ['editor'] }, ['p2']],
  ['dotted path into a document', { 'address.city': 'Paris' }, ['p1', 'p4']],
  ['dotted path through an array of documents', { 'items.sku': 'a' }, ['p1', 'p2']],
  ['range through an array of documents', { 'items.qty': { $gt: 4 } }, ['p1', 'p2']],
  ['$eq', { age: { $eq: 30 } }, ['p1', 'p4']],
  ['$ne', { age: { $ne: 30 } }, ['p2', 'p3']],
  ['$ne on an array field means no element equals', { tags: { $ne: 'admin' } }, ['p2', 'p3']],
  ['$gt and $lte', { age: { $gt: 25, $lte: 30 } }, ['p1', 'p4']],
  ['$gte', { age: { $gte: 35 } }, ['p3']],
  ['$lt', { age: { $lt: 30 } }, ['p2']],
  ['range operators on an array may match different elements', { scores: { $gt: 90, $lt: 75 } }, ['p4']],
  ['$in', { name: { $in: ['Alice', 'bob', 'zed'] } }, ['p1', 'p2']],
  ['$in on an array field', { tags: { $in: ['viewer', 'nobody'] } }, ['p4']],
  ['$in on _id', { _id: { $in: ['p1', 'p3'] } }, ['p1', 'p3']],
  ['$nin on an array field', { tags: { $nin: ['admin'] } }, ['p2', 'p3']],
  ['$exists: false', { address: { $exists: false } }, ['p3']],
  ['$exists: true on a dotted path', { 'address.zip': { $exists: true } }, ['p1']],
  ['$exists: false on a dotted path', { 'address.zip': { $exists: false } }, ['p2', 'p3', 'p4']],
  ['$exists: true on an empty array', { tags: { $exists: true } }, ['p1', 'p2', 'p3', 'p4']],
  ['$exists on a null field', { nickname: { $exists: true } }, ['p3']],
  ['equality with null matches null and missing', { nickname: null }, ['p1', 'p2', 'p3', 'p4']],
  ['RegExp value', { name: /^[ab]/i }, ['p1', 'p2']],
  ['$regex string with $options', { name: { $regex: '^c', $options: 'i' } }, ['p3']],
  ['$regex RegExp', { name: { $regex: /E$/i } }, ['p1', 'p4']],
  ['RegExp on an array field', { tags: /^ed/ }, ['p1', 'p2']],
  ['$all', { tags: { $all: ['admin', 'editor'] } }, ['p1']],
  ['$elemMatch on scalars', { scores: { $elemMatch: { $gt: 90, $lt: 96 } } }, ['p1']],
  ['$elemMatch on documents', { items: { $elemMatch: { sku: 'a', qty: { $gte: 5 } } } }, ['p2']],
  ['$size', { tags: { $size: 2 } }, ['p1', 'p4']],
  ['$size 0', { tags: { $size: 0 } }, ['p3']],
  ['$and', { $and: [{ age: 30 }, { tags: 'viewer' }] }, ['p4']],
  ['$and on one field', { $and: [{ age: { $gt: 20 } }, { age: { $lt: 31 } }] }, ['p1', 'p2', 'p4']],
  ['$or', { $or: [{ age: 25 }, { 'address.city': 'Paris' }] }, ['p1', 'p2', 'p4']],
  ['$nor', { $nor: [{ age: 30 }, { tags: 'editor' }] }, ['p3']],
  ['$not with an operator', { age: { $not: { $gt: 28 } } }, ['p2']],
  ['$not with a RegExp', { name: { $not: /^[A-Z]/ } }, ['p2', 'p4']],
  [
    'native and evaluated conditions together',
    { tags: 'admin', age: { $gte: 30, $ne: 35 }, 'address.city': { $in: ['Paris'] } },
    ['p1', 'p4'],
  ],
];

describe.each(adapters)('$name store', (adapter) => {
  let store: DocumentStore;
  let sequence = 0;
  const fresh = <T extends Document = Document>(): Collection<T> => store.collection<T>(`contract_${++sequence}`);

  /** A second client of the same data for a server engine; the embedded engine has one client per folder. */
  let peer: DocumentStore;

  beforeAll(async () => {
    store = await adapter.open();
    peer = adapter.openPeer ? await adapter.openPeer() : store;
  });

  afterAll(async () => {
    if (peer !== store) await peer?.close();
    await store?.close();
    await adapter.cleanup();
  });

  it('reports its kind and answers ping', async () => {
    expect(store.kind).toBe(adapter.name);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('reports every collection with its documents, declared indexes and size', async () => {
    const counted = fresh();
    await counted.insertOne({ _id: 'a', n: 1 });
    await counted.insertOne({ _id: 'b', n: 2 });
    await counted.createIndex({ n: 1 });
    const stats = await store.stats!();
    expect(stats.engine).toBe(adapter.name);
    expect(typeof stats.name).toBe('string');
    const mine = stats.collections.find((c) => c.name === counted.name);
    expect(mine).toMatchObject({ documents: 2, indexes: 1 });
    if (adapter.name !== 'mongodb') expect(mine!.sizeBytes).toBeGreaterThan(0);
    expect(stats.sizeBytes).toBeGreaterThan(0);
  });

  describe('insertOne', () => {
    it('generates a string id when absent, without touching the input', async () => {
      const c = fresh();
      const input: Document = { title: 'x' };
      const { insertedId } = await c.insertOne(input);
      expect(insertedId).toMatch(/^[0-9a-f]{32}$/);
      expect(input).toEqual({ title: 'x' });
      expect(await c.findOne({ _id: insertedId })).toEqual({ _id: insertedId, title: 'x' });
    });

    it('keeps a given id and rejects a duplicate one', async () => {
      const c = fresh();
      expect(await c.insertOne({ _id: 'given', n: 1 })).toEqual({ insertedId: 'given' });
      await expect(c.insertOne({ _id: 'given', n: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await c.find({})).toEqual([{ _id: 'given', n: 1 }]);
    });

    it('stores and finds strings with any character, U+0000 included', async () => {
      const c = fresh();
      const odd = { _id: 'n\u0000\uE000', s: 'a\u0000b', e: '\uE000\uE0000', slash: 'x\\u0000', list: ['\u0000'] };
      await c.insertOne(odd);
      await c.insertOne({ _id: 'plain', s: 'ab' });
      expect(await c.findOne({ s: 'a\u0000b' })).toEqual(odd);
      expect(await c.findOne({ _id: odd._id })).toEqual(odd);
      expect(ids(await c.find({ list: '\u0000' }))).toEqual([odd._id]);
      expect(ids(await c.find({ slash: 'x\\u0000', e: { $in: ['\uE000\uE0000'] } }))).toEqual([odd._id]);
      await c.updateOne({ _id: odd._id }, { $set: { t: '\u0000' } });
      expect(await c.countDocuments({ t: '\u0000', s: { $ne: 'ab' } })).toBe(1);
    });

    it('never shares objects with the stored documents', async () => {
      const c = fresh<Document & { list: number[]; nested: { a: number } }>();
      const input = { _id: 'i1', list: [1], nested: { a: 1 } };
      await c.insertOne(input);
      input.list.push(2);
      input.nested.a = 2;
      const first = await c.findOne({ _id: 'i1' });
      first!.list.push(3);
      first!.nested.a = 3;
      const updated = await c.findOneAndUpdate({ _id: 'i1' }, { $set: { extra: true } });
      updated!.list.push(4);
      const [listed] = await c.find({ _id: 'i1' });
      expect(listed).toEqual({ _id: 'i1', list: [1], nested: { a: 1 }, extra: true });
      expect(listed).not.toBe(first);
    });
  });

  describe('queries', () => {
    let people: Collection;

    beforeAll(async () => {
      people = fresh();
      for (const person of PEOPLE) await people.insertOne(person);
    });

    it.each(QUERIES)('%s', async (_label, filter, expected) => {
      expect(ids(await people.find(filter))).toEqual(expected);
      expect(await people.countDocuments(filter)).toBe(expected.length);
    });

    it('findOne returns null when nothing matches', async () => {
      expect(await people.findOne({ age: 99 })).toBeNull();
    });

    it('projects dotted fields', async () => {
      const docs = await people.find(
        { _id: { $in: ['p1', 'p3'] } },
        { projection: { 'address.city': 1, _id: 0 }, sort: { _id: 1 } },
      );
      expect(docs).toEqual([{ address: { city: 'Paris' } }, {}]);
    });
  });

  it('finds updated documents through an index, whether or not the update changed their keys', async () => {
    const tagged = fresh();
    await tagged.createIndex({ tags: 1 });
    await tagged.insertOne({ _id: 't1', tags: ['a', 'b'], n: 1 });
    await tagged.insertOne({ _id: 't2', tags: ['a'], n: 1 });
    await tagged.updateOne({ _id: 't1' }, { $set: { n: 2 } });
    expect(await tagged.find({ tags: 'b' })).toEqual([{ _id: 't1', tags: ['a', 'b'], n: 2 }]);
    await tagged.updateOne({ _id: 't1' }, { $set: { tags: ['c'] } });
    expect((await tagged.find({ tags: 'a' })).map((d) => d._id)).toEqual(['t2']);
    expect((await tagged.find({ tags: 'c' })).map((d) => d._id)).toEqual(['t1']);
    await tagged.updateMany({ tags: { $in: ['a', 'c'] } }, { $inc: { n: 10 } });
    expect((await tagged.find({ tags: { $in: ['a', 'c'] } }, { sort: { _id: 1 } })).map((d) => d.n)).toEqual([12, 11]);
    await tagged.deleteOne({ _id: 't2' });
    expect(await tagged.find({ tags: 'a' })).toEqual([]);
  });

  it('returns a document once when several elements of an indexed array are in range', async () => {
    const tagged = fresh();
    await tagged.createIndex({ tags: 1 });
    await tagged.insertOne({ _id: 'r1', tags: ['x', 'y', 'z'] });
    await tagged.insertOne({ _id: 'r2', tags: [] });
    expect(await tagged.find({ tags: { $gt: '' } })).toEqual([{ _id: 'r1', tags: ['x', 'y', 'z'] }]);
    expect(await tagged.countDocuments({ tags: { $gte: 'x', $lte: 'z' } })).toBe(1);
  });

  describe('sort, skip, limit, projection', () => {
    let ranked: Collection;

    beforeAll(async () => {
      ranked = fresh();
      for (const doc of [
        { _id: 's1', group: 'b', rank: 2 },
        { _id: 's2', group: 'a', rank: 2 },
        { _id: 's3', group: 'a', rank: 1 },
        { _id: 's4', group: 'b', rank: 1 },
        { _id: 's5', group: 'a', rank: 3 },
      ]) {
        await ranked.insertOne(doc);
      }
    });

    it('sorts by several keys', async () => {
      expect((await ranked.find({}, { sort: { group: 1, rank: -1 } })).map((d) => d._id)).toEqual([
        's5',
        's2',
        's3',
        's1',
        's4',
      ]);
      expect((await ranked.find({}, { sort: { rank: 1, _id: -1 } })).map((d) => d._id)).toEqual([
        's4',
        's3',
        's2',
        's1',
        's5',
      ]);
    });

    it('keeps ties together', async () => {
      const docs = await ranked.find({}, { sort: { group: 1 } });
      expect(ids(docs.slice(0, 3))).toEqual(['s2', 's3', 's5']);
      expect(ids(docs.slice(3))).toEqual(['s1', 's4']);
    });

    it('skips and limits after sorting', async () => {
      const docs = await ranked.find({}, { sort: { group: 1, rank: -1 }, skip: 1, limit: 2 });
      expect(docs.map((d) => d._id)).toEqual(['s2', 's3']);
    });

    it('pages a sorted, filtered match with a projection, whole documents in order', async () => {
      const page = await ranked.find(
        { group: { $in: ['a', 'b'] }, rank: { $gte: 1 } },
        { sort: { rank: -1, _id: 1 }, skip: 1, limit: 3 },
      );
      expect(page).toEqual([
        { _id: 's1', group: 'b', rank: 2 },
        { _id: 's2', group: 'a', rank: 2 },
        { _id: 's3', group: 'a', rank: 1 },
      ]);
      expect(await ranked.find({ group: 'a' }, { sort: { rank: 1 }, limit: 2, projection: { group: 0 } })).toEqual([
        { _id: 's3', rank: 1 },
        { _id: 's2', rank: 2 },
      ]);
      expect(await ranked.find({ group: 'z' }, { sort: { rank: 1 }, limit: 2 })).toEqual([]);
    });

    it('sorts a page on a nested field', async () => {
      const nested = fresh();
      for (const [id, at] of [
        ['n1', 3],
        ['n2', 1],
        ['n3', 2],
      ] as const) {
        await nested.insertOne({ _id: id, meta: { at } });
      }
      expect((await nested.find({}, { sort: { 'meta.at': 1 }, skip: 1, limit: 5 })).map((d) => d._id)).toEqual([
        'n3',
        'n1',
      ]);
    });

    it('skips and limits without sorting', async () => {
      expect(await ranked.find({}, { limit: 2 })).toHaveLength(2);
      expect(await ranked.find({}, { skip: 2 })).toHaveLength(3);
      expect(await ranked.find({ group: 'a' }, { skip: 1, limit: 5 })).toHaveLength(2);
    });

    it('projects by inclusion and exclusion', async () => {
      expect(await ranked.find({ _id: 's1' }, { projection: { rank: 1 } })).toEqual([{ _id: 's1', rank: 2 }]);
      expect(await ranked.find({ _id: 's1' }, { projection: { rank: 1, _id: 0 } })).toEqual([{ rank: 2 }]);
      expect(await ranked.find({ _id: 's1' }, { projection: { rank: 0 } })).toEqual([{ _id: 's1', group: 'b' }]);
    });

    it('findOne honours sort and projection', async () => {
      expect(await ranked.findOne({ group: 'a' }, { sort: { rank: -1 }, projection: { rank: 1, _id: 0 } })).toEqual({
        rank: 3,
      });
    });

    it('orders missing values, numbers, strings and booleans like MongoDB', async () => {
      const c = fresh();
      for (const [i, v] of ['b', 2, undefined, true, 'a', 1].entries()) {
        await c.insertOne(v === undefined ? { _id: `m${i}` } : { _id: `m${i}`, v });
      }
      const sorted = await c.find({}, { sort: { v: 1 } });
      expect(sorted.map((d) => d.v)).toEqual([undefined, 1, 2, 'a', 'b', true]);
    });
  });

  describe('updates', () => {
    it('applies $set $unset $inc $push $pull', async () => {
      const c = fresh();
      await c.insertOne({
        _id: 'u1',
        title: 'old',
        drop: 1,
        n: 1,
        tags: ['a'],
        nums: [1, 5, 7, 2],
        items: [
          { sku: 'x', qty: 1 },
          { sku: 'y', qty: 9 },
        ],
      });
      const result = await c.updateOne(
        { _id: 'u1' },
        {
          $set: { title: 'new', 'meta.kind': 'page' },
          $unset: { drop: '' },
          $inc: { n: 2, missing: 5 },
          $push: { tags: 'b' },
          $pull: { nums: { $gte: 5 }, items: { qty: { $lt: 3 } } },
        },
      );
      expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
      expect(await c.findOne({ _id: 'u1' })).toEqual({
        _id: 'u1',
        title: 'new',
        meta: { kind: 'page' },
        n: 3,
        missing: 5,
        tags: ['a', 'b'],
        nums: [1, 2],
        items: [{ sku: 'y', qty: 9 }],
      });

      await c.updateOne({ _id: 'u1' }, { $push: { tags: { $each: ['c', 'd'] }, fresh: 1 } });
      await c.updateOne({ _id: 'u1' }, { $pull: { tags: 'a' } });
      // Like MongoDB: two operators on one path conflict.
      await expect(c.updateOne({ _id: 'u1' }, { $push: { tags: 'e' }, $pull: { tags: 'b' } })).rejects.toThrow(
        /conflict/,
      );
      expect(await c.findOne({ _id: 'u1' }, { projection: { tags: 1, fresh: 1 } })).toEqual({
        _id: 'u1',
        tags: ['b', 'c', 'd'],
        fresh: [1],
      });
    });

    it('counts a no-op update as matched but not modified', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'same', v: 1 });
      expect(await c.updateOne({ _id: 'same' }, { $set: { v: 1 } })).toEqual({
        matchedCount: 1,
        modifiedCount: 0,
        upsertedId: null,
      });
      expect(await c.updateOne({ _id: 'none' }, { $set: { v: 1 } })).toEqual({
        matchedCount: 0,
        modifiedCount: 0,
        upsertedId: null,
      });
      expect(await c.countDocuments({})).toBe(1);
    });

    it('updateMany updates every match', async () => {
      const c = fresh();
      for (const [i, state] of ['draft', 'draft', 'published', 'draft'].entries()) {
        await c.insertOne({ _id: `d${i}`, state, flagged: i === 0 });
      }
      const result = await c.updateMany({ state: 'draft' }, { $set: { flagged: true } });
      expect(result).toEqual({ matchedCount: 3, modifiedCount: 2, upsertedId: null });
      expect(ids(await c.find({ flagged: true }))).toEqual(['d0', 'd1', 'd3']);
      expect(await c.updateMany({ state: 'gone' }, { $set: { flagged: false } })).toEqual({
        matchedCount: 0,
        modifiedCount: 0,
        upsertedId: null,
      });
    });

    it('rejects replacement documents and other operators', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'r', v: 1 });
      await expect(c.updateOne({ _id: 'r' }, { v: 2 } as never)).rejects.toThrow(/replacement/);
      await expect(c.updateMany({}, { $rename: { v: 'w' } } as never)).rejects.toThrow(/unsupported update operator/);
      await expect(c.findOneAndUpdate({ _id: 'r' }, {})).rejects.toThrow(/at least one/);
      expect(await c.findOne({ _id: 'r' })).toEqual({ _id: 'r', v: 1 });
    });

    it('rejects $inc on a non-numeric field', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'r', v: 'text' });
      await expect(c.updateOne({ _id: 'r' }, { $inc: { v: 1 } })).rejects.toThrow();
      expect(await c.findOne({ _id: 'r' })).toEqual({ _id: 'r', v: 'text' });
    });

    it('upserts with updateOne from the equality fields of the filter', async () => {
      const c = fresh();
      const result = await c.updateOne(
        { slug: 'new', 'meta.kind': 'page', views: { $gt: 5 } },
        { $set: { title: 'T' }, $inc: { count: 1 } },
        { upsert: true },
      );
      expect(result.matchedCount).toBe(0);
      expect(result.modifiedCount).toBe(0);
      expect(typeof result.upsertedId).toBe('string');
      expect(await c.findOne({ _id: result.upsertedId })).toEqual({
        _id: result.upsertedId,
        slug: 'new',
        meta: { kind: 'page' },
        title: 'T',
        count: 1,
      });

      const again = await c.updateOne({ slug: 'new' }, { $inc: { count: 1 } }, { upsert: true });
      expect(again).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });

      const withId = await c.updateOne({ _id: 'chosen' }, { $set: { v: 1 } }, { upsert: true });
      expect(withId.upsertedId).toBe('chosen');
      expect(await c.countDocuments({})).toBe(2);
    });
  });

  describe('findOneAndUpdate', () => {
    let c: Collection;

    beforeEach(async () => {
      c = fresh();
      for (const [i, rank] of [2, 3, 1].entries()) await c.insertOne({ _id: `f${i}`, group: 'a', rank, count: 0 });
    });

    it('returns the document after the update by default, or before', async () => {
      expect(await c.findOneAndUpdate({ _id: 'f0' }, { $inc: { count: 1 } })).toEqual({
        _id: 'f0',
        group: 'a',
        rank: 2,
        count: 1,
      });
      expect(await c.findOneAndUpdate({ _id: 'f0' }, { $inc: { count: 1 } }, { returnDocument: 'before' })).toEqual({
        _id: 'f0',
        group: 'a',
        rank: 2,
        count: 1,
      });
      expect(await c.findOne({ _id: 'f0' }, { projection: { count: 1, _id: 0 } })).toEqual({ count: 2 });
    });

    it('returns null and changes nothing when nothing matches', async () => {
      expect(await c.findOneAndUpdate({ group: 'b' }, { $set: { x: 1 } })).toBeNull();
      expect(await c.countDocuments({ x: 1 })).toBe(0);
      expect(await c.countDocuments({})).toBe(3);
    });

    it('picks the first match in sort order and projects', async () => {
      const doc = await c.findOneAndUpdate(
        { group: 'a' },
        { $set: { picked: true } },
        { sort: { rank: -1 }, projection: { rank: 1, picked: 1, _id: 0 } },
      );
      expect(doc).toEqual({ rank: 3, picked: true });
      expect(ids(await c.find({ picked: true }))).toEqual(['f1']);
    });

    it('upserts: null before, the new document after', async () => {
      expect(
        await c.findOneAndUpdate(
          { group: 'b', rank: 7 },
          { $set: { note: 'n' } },
          { upsert: true, returnDocument: 'before' },
        ),
      ).toBeNull();
      const inserted = await c.findOne({ group: 'b' });
      expect(inserted).toEqual({ _id: expect.any(String), group: 'b', rank: 7, note: 'n' });

      const after = await c.findOneAndUpdate({ group: 'c' }, { $inc: { count: 1 } }, { upsert: true });
      expect(after).toEqual({ _id: expect.any(String), group: 'c', count: 1 });
      expect(await c.findOne({ _id: after!._id })).toEqual(after);
    });

    it('is atomic: 50 concurrent increments give 50 distinct results', async () => {
      await c.insertOne({ _id: 'counter', n: 0 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () => c.findOneAndUpdate({ _id: 'counter' }, { $inc: { n: 1 } })),
      );
      const values = results.map((doc) => doc!.n as number).sort((a, b) => a - b);
      expect(values).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await c.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', n: 50 });
    });
  });

  describe('deletes', () => {
    let c: Collection;

    beforeEach(async () => {
      c = fresh();
      for (const [i, group] of ['a', 'a', 'b', 'a'].entries()) {
        await c.insertOne({ _id: `x${i}`, group, tags: i === 0 ? ['k', 'l'] : ['k'] });
      }
    });

    it('countDocuments counts no further than a limit', async () => {
      expect(await c.countDocuments({ group: 'a' }, { limit: 2 })).toBe(2);
      expect(await c.countDocuments({ group: 'a' }, { limit: 5 })).toBe(3);
      expect(await c.countDocuments({ tags: 'k', group: { $ne: 'b' } }, { limit: 1 })).toBe(1);
      // A filter the SQL engines leave in part to mingo.
      expect(await c.countDocuments({ group: { $regex: 'a|b' } }, { limit: 3 })).toBe(3);
      await expect(c.countDocuments({}, { limit: -1 })).rejects.toThrow(/limit/);
    });

    it('deleteOne deletes exactly one match', async () => {
      expect(await c.deleteOne({ group: 'a' })).toEqual({ deletedCount: 1 });
      expect(await c.countDocuments({ group: 'a' })).toBe(2);
      expect(await c.deleteOne({ group: 'z' })).toEqual({ deletedCount: 0 });
      expect(await c.countDocuments({})).toBe(3);
    });

    it('deleteMany deletes every match', async () => {
      expect(await c.deleteMany({ group: 'a' })).toEqual({ deletedCount: 3 });
      expect(ids(await c.find({}))).toEqual(['x2']);
    });

    it('deletes with operators NeDB lacks', async () => {
      expect(await c.deleteMany({ tags: { $all: ['k', 'l'] } })).toEqual({ deletedCount: 1 });
      expect(await c.deleteMany({ $nor: [{ group: 'a' }] })).toEqual({ deletedCount: 1 });
      expect(ids(await c.find({}))).toEqual(['x1', 'x3']);
    });
  });

  describe('paging and counting', () => {
    it('pages a sorted set with ties without gaps or overlaps, and counts the match', async () => {
      const c = fresh();
      for (let i = 0; i < 25; i += 1)
        await c.insertOne({ _id: `g${String(i).padStart(2, '0')}`, rank: i % 4, on: i % 5 !== 0 });
      const seen: string[] = [];
      for (let skip = 0; skip < 30; skip += 7) {
        const page = await c.find({ on: true }, { sort: { rank: 1, _id: 1 }, skip, limit: 7, projection: { _id: 1 } });
        seen.push(...page.map((doc) => String(doc._id)));
      }
      expect(seen).toHaveLength(20);
      expect(new Set(seen).size).toBe(20);
      expect(await c.countDocuments({ on: true })).toBe(20);
      expect(await c.countDocuments({ on: true, rank: { $in: [0, 3] } })).toBe(10);
      const ranks = (await c.find({ on: true }, { sort: { rank: -1, _id: 1 } })).map((doc) => doc.rank as number);
      expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    });
  });

  describe('concurrent writers', () => {
    /** Alternates between the two clients of the data. */
    const client = (i: number) => (i % 2 === 0 ? store : peer);

    it('increments one document from two clients to the exact total', async () => {
      const name = fresh().name;
      await store.collection(name).insertOne({ _id: 'total', n: 0 });
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          client(i)
            .collection(name)
            .findOneAndUpdate({ _id: 'total' }, { $inc: { n: 1 } }),
        ),
      );
      expect(results.map((doc) => doc!.n as number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      expect(await peer.collection(name).findOne({ _id: 'total' })).toEqual({ _id: 'total', n: 60 });
    });

    it('applies every one of racing updateMany calls over the same documents', async () => {
      const name = fresh().name;
      for (let i = 0; i < 15; i += 1) await store.collection(name).insertOne({ _id: `m${i}`, group: 'a', n: 0 });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client(i)
            .collection(name)
            .updateMany({ group: 'a' }, { $inc: { n: 1 } }),
        ),
      );
      expect(results.map((result) => result.modifiedCount)).toEqual(Array.from({ length: 10 }, () => 15));
      expect(await store.collection(name).countDocuments({ n: 10 })).toBe(15);
    });

    it('lets exactly one of racing conditional writes win', async () => {
      const name = fresh().name;
      await store.collection(name).insertOne({ _id: 'doc', version: 1 });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          client(i)
            .collection(name)
            .updateOne({ _id: 'doc', version: 1 }, { $set: { version: 2, writer: i } }),
        ),
      );
      const winners = results.flatMap((result, i) => (result.modifiedCount === 1 ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((result) => result.matchedCount === 0)).toHaveLength(11);
      expect(await store.collection(name).findOne({ _id: 'doc' })).toEqual({
        _id: 'doc',
        version: 2,
        writer: winners[0],
      });
    });

    it('grants a lease to one claimer, and again once it has expired', async () => {
      const name = fresh().name;
      await store.collection(name).insertOne({ _id: 'lease', holder: null, expiresAt: 0 });
      // A logical clock: the claimers' "now".
      const claim = (i: number, now: number) =>
        client(i)
          .collection(name)
          .findOneAndUpdate(
            { _id: 'lease', $or: [{ holder: null }, { expiresAt: { $lte: now } }] },
            { $set: { holder: `worker${i}`, expiresAt: now + 100 } },
          );
      const first = await Promise.all(Array.from({ length: 10 }, (_, i) => claim(i, 1000)));
      const granted = first.filter((doc) => doc !== null);
      expect(granted).toHaveLength(1);
      expect(granted[0]).toMatchObject({ expiresAt: 1100 });
      // Still held at 1050: nobody gets it.
      expect((await Promise.all(Array.from({ length: 6 }, (_, i) => claim(i, 1050)))).filter(Boolean)).toEqual([]);
      // Expired at 1100: again exactly one.
      const second = (await Promise.all(Array.from({ length: 10 }, (_, i) => claim(i, 1100)))).filter(Boolean);
      expect(second).toHaveLength(1);
      expect(await peer.collection(name).findOne({ _id: 'lease' })).toEqual(second[0]);
    });

    it('claims queued work once per item with competing claimers', async () => {
      const name = fresh().name;
      for (let i = 0; i < 20; i += 1)
        await store.collection(name).insertOne({ _id: `job${i}`, seq: i, state: 'queued' });
      const claimed: string[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async (_, worker) => {
          for (;;) {
            const job = await client(worker)
              .collection(name)
              .findOneAndUpdate({ state: 'queued' }, { $set: { state: 'taken', worker } }, { sort: { seq: 1 } });
            if (!job) return;
            claimed.push(String(job._id));
          }
        }),
      );
      expect(claimed.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `job${i}`).sort());
      expect(await store.collection(name).countDocuments({ state: 'taken' })).toBe(20);
    });

    it('makes racing upserts of one _id one document, each either applied or refused as a duplicate', async () => {
      const name = fresh().name;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          client(i)
            .collection(name)
            .updateOne({ _id: 'once' }, { $inc: { n: 1 } }, { upsert: true }),
        ),
      );
      const applied = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DuplicateKeyError);
      }
      expect(await store.collection(name).find({})).toEqual([{ _id: 'once', n: applied }]);
    });

    it('keeps a unique key unique under racing upserts', async () => {
      const name = fresh().name;
      await store.collection(name).createIndex({ email: 1 }, { unique: true });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          client(i)
            .collection(name)
            .findOneAndUpdate({ email: 'a@example.org' }, { $inc: { logins: 1 } }, { upsert: true }),
        ),
      );
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DuplicateKeyError);
      }
      const applied = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      expect(await store.collection(name).find({}, { projection: { _id: 0 } })).toEqual([
        { email: 'a@example.org', logins: applied },
      ]);
    });

    it('deletes a document once when deletions race', async () => {
      const name = fresh().name;
      await store.collection(name).insertOne({ _id: 'gone', kind: 'x' });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => client(i).collection(name).deleteOne({ kind: 'x' })),
      );
      expect(results.map((result) => result.deletedCount).reduce((a, b) => a + b, 0)).toBe(1);
    });
  });

  describe('indexes', () => {
    it('a unique index rejects duplicates with DuplicateKeyError and writes nothing', async () => {
      const c = fresh();
      await c.createIndex({ email: 1 }, { unique: true });
      await c.createIndex({ email: 1 }, { unique: true }); // idempotent
      await c.insertOne({ _id: 'a', email: 'a@example.org' });
      await c.insertOne({ _id: 'b', email: 'b@example.org' });

      const error = await c.insertOne({ _id: 'c', email: 'a@example.org' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(DuplicateKeyError);
      expect((error as DuplicateKeyError).collection).toBe(c.name);
      expect((error as DuplicateKeyError).key).toContain('email');
      expect((error as DuplicateKeyError).key).toContain('a@example.org');
      expect(await c.countDocuments({})).toBe(2);

      await expect(c.updateOne({ _id: 'b' }, { $set: { email: 'a@example.org' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(
        c.findOneAndUpdate({ _id: 'new' }, { $set: { email: 'b@example.org' } }, { upsert: true }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', email: 'a@example.org' },
        { _id: 'b', email: 'b@example.org' },
      ]);
    });

    it('a unique index treats missing values as equal unless sparse', async () => {
      const dense = fresh();
      await dense.createIndex({ code: 1 }, { unique: true });
      await dense.insertOne({ _id: '1' });
      await expect(dense.insertOne({ _id: '2' })).rejects.toBeInstanceOf(DuplicateKeyError);

      const sparse = fresh();
      await sparse.createIndex({ code: 1 }, { unique: true, sparse: true });
      await sparse.insertOne({ _id: '1' });
      await sparse.insertOne({ _id: '2' });
      await sparse.insertOne({ _id: '3', code: 'x' });
      await expect(sparse.insertOne({ _id: '4', code: 'x' })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await sparse.countDocuments({})).toBe(3);
    });

    it('creating a unique index over duplicates fails with DuplicateKeyError', async () => {
      const c = fresh();
      await c.insertOne({ _id: '1', k: 'same' });
      await c.insertOne({ _id: '2', k: 'same' });
      await expect(c.createIndex({ k: 1 }, { unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.insertOne({ _id: '3', k: 'same' });
      expect(await c.countDocuments({ k: 'same' })).toBe(3);
    });

    it('allows compound indexes, refuses compound unique ones', async () => {
      const c = fresh();
      await c.createIndex({ a: 1, b: -1 });
      await c.createIndex({ a: 1, b: -1 });
      await expect(c.createIndex({ a: 1, b: 1 }, { unique: true })).rejects.toThrow(/compound unique/);
      await c.insertOne({ _id: '1', a: 1, b: 1 });
      await c.insertOne({ _id: '2', a: 1, b: 1 });
      expect(ids(await c.find({ a: 1, b: 1 }))).toEqual(['1', '2']);
    });

    it('a unique single-field index is enforced next to a compound one on the same first field', async () => {
      const c = fresh();
      await c.createIndex({ path: 1, order: 1 });
      await c.createIndex({ path: 1 }, { unique: true });
      await c.insertOne({ _id: '1', path: '/a', order: 1 });
      await expect(c.insertOne({ _id: '2', path: '/a', order: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('queries use indexed fields with the same results', async () => {
      const c = fresh();
      await c.createIndex({ tags: 1 });
      await c.createIndex({ n: 1 });
      for (let n = 0; n < 20; n += 1) await c.insertOne({ _id: `n${n}`, n, tags: [`t${n % 3}`, 'all'] });
      expect(await c.countDocuments({ tags: 't1' })).toBe(7);
      expect(await c.countDocuments({ n: { $gte: 5, $lt: 10 } })).toBe(5);
      expect(await c.countDocuments({ n: { $in: [1, 2, 40] }, tags: 'all' })).toBe(2);
      expect(ids(await c.find({ n: { $gt: 17 }, tags: { $ne: 't0' } }))).toEqual(['n19']);
    });

    it('queries on an indexed array field follow every write to it', async () => {
      const c = fresh();
      await c.createIndex({ tags: 1 });
      await c.insertOne({ _id: 'mixed', tags: ['x', 3, true, null, ['nested'], { k: 'x' }, 'x'] });
      await c.insertOne({ _id: 'empty', tags: [] });
      await c.insertOne({ _id: 'scalar', tags: 'x' });
      expect(ids(await c.find({ tags: 'x' }))).toEqual(['mixed', 'scalar']);
      expect(ids(await c.find({ tags: { $gte: 2 } }))).toEqual(['mixed']);
      expect(ids(await c.find({ tags: true }))).toEqual(['mixed']);
      expect(ids(await c.find({ tags: '3' }))).toEqual([]);
      expect(await c.countDocuments({ tags: { $in: ['x', 3] } })).toBe(2);
      expect(ids(await c.find({ tags: ['nested'] }))).toEqual(['mixed']);
      expect(ids(await c.find({ 'tags.k': 'x' }))).toEqual(['mixed']);
      expect(ids(await c.find({ tags: { $size: 0 } }))).toEqual(['empty']);

      // An array turned into a scalar and back, elements pushed and pulled.
      await c.updateOne({ _id: 'mixed' }, { $set: { tags: 'y' } });
      expect(ids(await c.find({ tags: 'x' }))).toEqual(['scalar']);
      expect(ids(await c.find({ tags: 3 }))).toEqual([]);
      await c.updateOne({ _id: 'mixed' }, { $set: { tags: ['z', 4] } });
      await c.updateOne({ _id: 'empty' }, { $push: { tags: 'x' } });
      await c.updateOne({ _id: 'scalar' }, { $set: { tags: ['x', 'w'] } });
      await c.updateOne({ _id: 'scalar' }, { $pull: { tags: 'x' } });
      expect(ids(await c.find({ tags: 'x' }))).toEqual(['empty']);
      expect(ids(await c.find({ tags: { $in: ['w', 4] } }))).toEqual(['mixed', 'scalar']);
      await c.findOneAndUpdate({ tags: 'z' }, { $unset: { tags: '' } });
      expect(ids(await c.find({ tags: { $gt: 0 } }))).toEqual([]);
      await c.updateOne({ _id: 'upserted' }, { $set: { tags: ['u', 'v'] } }, { upsert: true });
      expect(ids(await c.find({ tags: 'u' }))).toEqual(['upserted']);

      await c.deleteOne({ _id: 'empty' });
      await c.deleteMany({ tags: 'w' });
      expect(await c.countDocuments({ tags: { $in: ['x', 'w'] } })).toBe(0);
      // A document written again under a deleted one's _id shows its own elements only.
      await c.insertOne({ _id: 'empty', tags: ['t'] });
      expect(ids(await c.find({ tags: 't' }))).toEqual(['empty']);
      expect(ids(await c.find({ tags: 'x' }))).toEqual([]);
    });

    it('prefix regular expressions on an indexed array field', async () => {
      const c = fresh();
      await c.createIndex({ words: 1 });
      await c.insertOne({ _id: 'a', words: ['doc', 'a.b'] });
      await c.insertOne({ _id: 'b', words: ['docs', 'axb', 'été'] });
      await c.insertOne({ _id: 'c', words: ['do', 'dod', 'eta', 7] });
      await c.insertOne({ _id: 'd', words: 'document' });
      await c.insertOne({ _id: 'e', words: ['Doc', 'étage'] });
      expect(ids(await c.find({ words: { $regex: '^doc' } }))).toEqual(['a', 'b', 'd']);
      expect(ids(await c.find({ words: /^a\.b/ }))).toEqual(['a']);
      expect(ids(await c.find({ words: { $regex: '^ét' } }))).toEqual(['b', 'e']);
      expect(ids(await c.find({ words: { $regex: '^doc', $options: 'i' } }))).toEqual(['a', 'b', 'd', 'e']);
      expect(ids(await c.find({ $and: [{ words: { $regex: '^do' } }, { words: { $regex: '^e' } }] }))).toEqual(['c']);
      expect(await c.countDocuments({ words: { $regex: '^do', $nin: ['do'] } })).toBe(3);
    });

    it('an index created over documents already there serves their arrays, and is created again idempotently', async () => {
      const c = fresh();
      for (let n = 0; n < 12; n += 1) await c.insertOne({ _id: `n${n}`, tags: [`t${n % 4}`, n] });
      await c.createIndex({ tags: 1 });
      await c.createIndex({ tags: 1 });
      expect(ids(await c.find({ tags: 't1' }))).toEqual(['n1', 'n5', 'n9']);
      expect(ids(await c.find({ tags: { $gte: 10 } }))).toEqual(['n10', 'n11']);
      await c.insertOne({ _id: 'late', tags: ['t1'] });
      expect(await c.countDocuments({ tags: 't1' })).toBe(4);
      // Another client sees the same answers (for SQLite, another connection that has not created the index).
      expect(await peer.collection(c.name).countDocuments({ tags: 't1' })).toBe(4);
    });
  });
});

describe('embedded store on disk', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('openStore chooses the embedded engine without a MongoDB URL', async () => {
    const store = await openStore({ dataDir: dir, mongoUrl: '' });
    expect(store.kind).toBe('embedded');
    await store.close();
  });

  it('keeps data, updates, deletes and indexes across a restart', async () => {
    const first = await openEmbeddedStore(dir);
    const users = first.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ _id: 'u1', email: 'a@example.org', n: 1 });
    await users.insertOne({ _id: 'u2', email: 'b@example.org', n: 1 });
    await users.insertOne({ _id: 'u3', email: 'c@example.org', n: 1 });
    await users.updateOne({ _id: 'u1' }, { $inc: { n: 1 } });
    await users.deleteOne({ _id: 'u2' });

    // No close: a restart after a crash.
    await markHolderCrashed(dir);
    const second = await openEmbeddedStore(dir);
    const reopened = second.collection('users');
    expect(await reopened.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'u1', email: 'a@example.org', n: 2 },
      { _id: 'u3', email: 'c@example.org', n: 1 },
    ]);
    await expect(reopened.insertOne({ _id: 'u4', email: 'c@example.org' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await second.close();
    await first.close();
  });

  it('close compacts each file to one line per document and index', async () => {
    const store = await openEmbeddedStore(dir);
    const c = store.collection('items');
    await c.createIndex({ k: 1 });
    await c.insertOne({ _id: 'a', k: 1 });
    await c.insertOne({ _id: 'b', k: 1 });
    await c.updateMany({}, { $inc: { k: 1 } });
    await c.deleteOne({ _id: 'b' });
    await store.close();
    const lines = (await fs.readFile(path.join(dir, 'items.db'), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    await expect(store.ping()).rejects.toThrow(/closed/);
    expect(() => store.collection('items')).toThrow(/closed/);
    await expect(c.find({})).rejects.toThrow(/closed/);
  });

  it('loads a file whose last line was torn by a crash', async () => {
    const valid = [JSON.stringify({ _id: 'a', n: 1 }), JSON.stringify({ _id: 'b', n: 2 })];
    await fs.writeFile(path.join(dir, 'items.db'), `${valid.join('\n')}\n{"_id":"c","n`);
    const store = await openEmbeddedStore(dir);
    const c = store.collection('items');
    expect(ids(await c.find({}))).toEqual(['a', 'b']);
    await c.insertOne({ _id: 'c', n: 3 });
    await store.close();

    const reopened = await openEmbeddedStore(dir);
    expect(ids(await reopened.collection('items').find({}))).toEqual(['a', 'b', 'c']);
    await reopened.close();
  });

  describe('a write its file cannot take', () => {
    // Root writes files whatever their mode, so a directory takes the file's place: every append and rename fails.
    const breakFile = async (file: string) => {
      await fs.rename(file, `${file}.aside`);
      await fs.mkdir(file);
    };
    const repairFile = async (file: string) => {
      await fs.rmdir(file);
      await fs.rename(`${file}.aside`, file);
    };
    const writes: [string, (c: Collection) => Promise<unknown>][] = [
      ['insertOne', (c) => c.insertOne({ _id: 'c', k: 3, title: 'new' })],
      ['updateOne', (c) => c.updateOne({ _id: 'a' }, { $set: { k: 3, title: 'new', _pending: true } })],
      ['updateOne with upsert', (c) => c.updateOne({ _id: 'c' }, { $set: { k: 3, title: 'new' } }, { upsert: true })],
      ['findOneAndUpdate', (c) => c.findOneAndUpdate({ _id: 'a' }, { $set: { k: 3, title: 'new', _pending: true } })],
      [
        'findOneAndUpdate with upsert',
        (c) => c.findOneAndUpdate({ _id: 'c' }, { $set: { k: 3, title: 'new' } }, { upsert: true }),
      ],
      ['updateMany', (c) => c.updateMany({}, { $set: { title: 'new', _pending: true } })],
      ['deleteOne', (c) => c.deleteOne({ _id: 'a' })],
      ['deleteMany', (c) => c.deleteMany({})],
    ];

    it.each(writes)(
      '%s fails, leaves nothing in memory, and the file is whole again at the next write',
      async (_, write) => {
        const store = await openEmbeddedStore(dir);
        const c = store.collection('items');
        await c.createIndex({ k: 1 }, { unique: true });
        await c.insertOne({ _id: 'a', k: 1, title: 'old' });
        await c.insertOne({ _id: 'b', k: 2, title: 'old' });
        const before = await c.find({}, { sort: { _id: 1 } });
        const file = path.join(dir, 'items.db');

        await breakFile(file);
        await expect(write(c)).rejects.toThrow();
        // Reads, the unique index and the outbox relay's `_pending` look-up all see the store as it was.
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual(before);
        expect(await c.find({ k: 3 })).toEqual([]);
        expect(await c.countDocuments({ _pending: true })).toBe(0);
        await expect(c.insertOne({ _id: 'd', k: 1 })).rejects.toThrow();

        // Writable again, with the torn line a failed append may leave: the next write is kept whole.
        await repairFile(file);
        await fs.appendFile(file, '{"_id":"torn","k');
        await expect(c.insertOne({ _id: 'd', k: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.insertOne({ _id: 'e', k: 5, title: 'later' });

        // No close: a restart after a crash reads what the memory held.
        await markHolderCrashed(dir);
        const reopened = await openEmbeddedStore(dir);
        expect(await reopened.collection('items').find({}, { sort: { _id: 1 } })).toEqual([
          ...before,
          { _id: 'e', k: 5, title: 'later' },
        ]);
        await reopened.close();
        await store.close();
      },
    );
  });

  it('rejects collection names that are not plain file names', async () => {
    const store = await openEmbeddedStore(dir);
    expect(() => store.collection('../escape')).toThrow(/invalid collection name/);
    expect(() => store.collection('')).toThrow(/invalid collection name/);
    await store.close();
  });

  it('ping fails when the data directory is gone', async () => {
    const store = await openEmbeddedStore(dir);
    await fs.rm(dir, { recursive: true, force: true });
    await expect(store.ping()).rejects.toThrow();
    await store.close();
  });

  it('loses no acknowledged write when the process is killed', async () => {
    const acknowledged = await killWriterMidway(
      'kill-writer.js',
      [dir, '100000'],
      path.join(__dirname, '../../dist/adapters/store/embedded/embedded-store.js'),
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    expect(await items.countDocuments({ _id: { $in: acknowledged } })).toBe(acknowledged.length);
    await store.close();
  });
});
