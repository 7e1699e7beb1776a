/**
 * The embedded engine's fast paths (src/adapters/store/embedded/embedded-query.ts) against mingo, which the general path uses for
 * MongoDB's semantics: random documents and random filters and sorts of the forms the fast paths take, compared
 * document by document, and through a real embedded store (counts and sorted pages, with and without indexes,
 * with the index walk), including values the fast paths refuse (they must then give the general path's answer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query, find as mingoFind } from 'mingo';
import { compileFilter, fastPathAnswers, sortable } from '../../src/adapters/store/embedded/embedded-query';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import type { Document, DocumentStore, Filter, SortSpec } from '../../src/ports/store';

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS = ['a', 'b', 'c'];
const STRINGS = ['', 'a', 'ab', 'b', 'B', 'é', '2000-01-01', '2020-05-01T00:00:00.000Z'];
const NUMBERS = [-1, 0, 1, 1.5, 10];

function pick<T>(rand: () => number, values: readonly T[]): T {
  return values[Math.floor(rand() * values.length)]!;
}

function scalar(rand: () => number): string | number | boolean | null {
  const r = rand();
  if (r < 0.45) return pick(rand, STRINGS);
  if (r < 0.8) return pick(rand, NUMBERS);
  if (r < 0.9) return rand() < 0.5;
  return null;
}

function value(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (r < 0.15) return undefined;
  if (r < 0.7) return scalar(rand);
  // Arrays of scalars and subdocuments; not of arrays (MongoDB matches one level deep, mingo descends further).
  if (r < 0.9 && depth === 0) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, 1) ?? null);
  if (r < 0.9) return scalar(rand);
  // A subdocument: equal to no scalar operand, in no range of one.
  return { nested: scalar(rand) };
}

function doc(rand: () => number, i: number): Document {
  const d: Document = { _id: `d${String(i).padStart(4, '0')}` };
  for (const field of FIELDS) {
    const v = value(rand);
    if (v !== undefined) d[field] = v;
  }
  return d;
}

function condition(rand: () => number): unknown {
  const r = rand();
  if (r < 0.25) return scalar(rand);
  const op = pick(rand, ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$regex']);
  switch (op) {
    case '$in':
    case '$nin':
      return { [op]: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => scalar(rand)) };
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const c: Record<string, unknown> = { [op]: rand() < 0.5 ? pick(rand, STRINGS) : pick(rand, NUMBERS) };
      if (rand() < 0.3) c[pick(rand, ['$lt', '$ne'])] = pick(rand, NUMBERS);
      return c;
    }
    case '$exists':
      return { $exists: rand() < 0.5 };
    case '$regex':
      return { $regex: pick(rand, ['^a', 'b', '^$', '^2000']) };
    default:
      return { [op]: scalar(rand) };
  }
}

function filter(rand: () => number, depth = 0): Filter {
  const f: Filter = {};
  const n = 1 + Math.floor(rand() * 2);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (depth < 2 && r < 0.2) f[rand() < 0.5 ? '$and' : '$or'] = [filter(rand, depth + 1), filter(rand, depth + 1)];
    else f[pick(rand, FIELDS)] = condition(rand);
  }
  return f;
}

describe('compiled filters agree with mingo', () => {
  it('on 3,000 random filters over 200 random documents (arrays and subdocuments among them)', () => {
    const rand = random(7);
    const docs = Array.from({ length: 200 }, (_, i) => doc(rand, i));
    let compared = 0;
    for (let k = 0; k < 3000; k++) {
      const f = filter(rand);
      const compiled = compileFilter(f);
      if (!compiled) continue;
      const reference = new Query(f);
      for (const d of docs) {
        const expected = reference.test(d);
        if (compiled(d) !== expected) {
          throw new Error(`filter ${JSON.stringify(f)} on ${JSON.stringify(d)}: expected ${String(expected)}`);
        }
        compared++;
      }
    }
    // Most filters compile: the comparison is not vacuous.
    expect(compared).toBeGreaterThan(400_000);
  });

  it('refuses what it cannot evaluate exactly', () => {
    expect(compileFilter({ 'a.b': 1 })).toBeUndefined();
    expect(compileFilter({ a: { $regex: '^a', $options: 'i' } })).toBeUndefined();
    expect(compileFilter({ a: { $elemMatch: { $gt: 1 } } })).toBeUndefined();
    expect(compileFilter({ a: [1, 2] })).toBeUndefined();
    expect(compileFilter({ a: { $gt: new Date(0) } })).toBeUndefined();
    expect(compileFilter({ $nor: [{ a: 1 }] })).toBeUndefined();
    expect(sortable({ nested: 1 })).toBe(false);
    expect(sortable([1])).toBe(false);
    expect(sortable(true)).toBe(false);
    expect(sortable(null)).toBe(true);
  });
});

describe('the embedded store with its fast paths', () => {
  let dir: string;
  let store: DocumentStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-embedded-query-'));
    store = await openEmbeddedStore(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts and pages as mingo does, with and without indexes, walking an index over many candidates', async () => {
    const rand = random(11);
    // Mostly sortable values, a few the walk refuses (booleans, arrays, objects): it must fall back, not guess.
    const docs = Array.from({ length: 4000 }, (_, i) => {
      const d = doc(rand, i);
      d.k = rand() < 0.97 ? pick(rand, [...STRINGS, ...NUMBERS, null]) : value(rand);
      d.tag = pick(rand, ['x', 'y', 'z']);
      d.tags = ['x', 'y', 'z', 1].filter(() => rand() < 0.4);
      return d;
    });
    // Every value one the fast paths read exactly, so that they answer (rather than fall back).
    const clean = docs.filter((d) => sortable(d.k) && sortable(d.a));
    const items = store.collection('items');
    const cleanItems = store.collection('clean');
    for (const d of docs) await items.insertOne(d);
    for (const d of clean) await cleanItems.insertOne(d);
    const check = async (label: string, collection: typeof items, source: Document[]) => {
      const all = mingoFind(source, {}).all();
      for (let k = 0; k < 60; k++) {
        const r = rand();
        const f: Filter =
          r < 0.35
            ? { tag: pick(rand, ['x', 'y']), ...filter(rand) }
            : r < 0.6
              ? { tags: { $in: ['x', 1, 'z'].filter(() => rand() < 0.7) }, ...filter(rand) }
              : r < 0.75
                ? // The condition candidates come from, again inside an $or (which it does not decide).
                  { tag: 'x', $or: [{ tag: 'x', ...filter(rand) }, filter(rand)] }
                : filter(rand);
        const sort: SortSpec = rand() < 0.5 ? { k: 1, _id: 1 } : { k: -1, a: 1, _id: -1 };
        const skip = pick(rand, [0, 5, 100]);
        const limit = pick(rand, [1, 25]);
        const expected = mingoFind(all, f).sort(sort).skip(skip).limit(limit).all();
        const context = `${label}: ${JSON.stringify(f)} sort ${JSON.stringify(sort)} skip ${skip} limit ${limit}`;
        expect([context, await collection.countDocuments(f)]).toEqual([context, mingoFind(all, f).all().length]);
        expect([context, await collection.find(f, { sort, skip, limit })]).toEqual([context, expected]);
      }
    };
    await check('no index', items, docs);
    await items.createIndex({ k: 1 });
    await items.createIndex({ tag: 1 });
    await items.createIndex({ tags: 1 });
    await cleanItems.createIndex({ k: 1 });
    await cleanItems.createIndex({ tag: 1 });
    await cleanItems.createIndex({ tags: 1 });
    await check('indexed, some values refused', items, docs);
    const before = { ...fastPathAnswers };
    await check('indexed, every value walkable', cleanItems, clean);
    // Most of those were answered by the fast paths, some by walking an index.
    expect(fastPathAnswers.count - before.count).toBeGreaterThan(40);
    expect(fastPathAnswers.page - before.page).toBeGreaterThan(20);
    expect(fastPathAnswers.walk - before.walk).toBeGreaterThan(5);
  });

  it('answers copies: changing a document read through a fast path changes nothing stored', async () => {
    const items = store.collection('items');
    await items.createIndex({ k: 1 });
    for (let i = 0; i < 2100; i++) await items.insertOne({ _id: `i${i}`, k: i % 7, tag: 'x', list: ['a'] });
    const [first] = await items.find({ tag: 'x' }, { sort: { k: 1 }, limit: 1 });
    (first!.list as string[]).push('changed');
    first!.k = 99;
    const [again] = await items.find({ _id: first!._id });
    expect(again).toMatchObject({ k: 0, list: ['a'] });
  });
});
