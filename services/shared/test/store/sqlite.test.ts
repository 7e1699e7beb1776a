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
import { sideTableName } from '../../src/adapters/store/sqlite/ddl';
import { filterToSql } from '../../src/adapters/store/sqlite/filter-sql';
import { PostingLists } from '../../src/adapters/store/sqlite/posting-lists';
import { sortToSql } from '../../src/adapters/store/sqlite/sort-sql';
import { arraysIndexName, compoundIndexName, rankedIndexName } from '../../src/adapters/store/sqlite/ddl';
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
    ['equality with null (missing, null, or an array holding null)', { effective: null }],
  ])('decides %s in SQL', (_name, filter) => {
    expect(filterToSql(filter).exact).toBe(true);
  });

  it.each<[string, Filter]>([
    ['a dotted path (an array on the way may hold the match)', { 'address.city': 'Paris' }],
    ['a regular expression', { name: /^a/ }],
    ['$ne on a dotted path', { 'a.b': { $ne: 30 } }],
    ['equality with null on a dotted path', { 'a.b': null }],
    [
      'a string range with a non-ASCII bound (SQLite and JavaScript order such strings differently)',
      { name: { $gt: 'é' } },
    ],
    ['$or with an undecided part', { $or: [{ a: 1 }, { b: /x/ }] }],
  ])('leaves %s to mingo', (_name, filter) => {
    expect(filterToSql(filter).exact).toBe(false);
  });

  it.each<[string, Filter, string, string]>([
    ['a string', { words: { $regex: '^doc' } }, 'doc', 'dod'],
    ['a RegExp with an escaped character', { words: /^a\.b/ }, 'a.b', 'a.c'],
    ['a RegExp in $regex, empty $options', { words: { $regex: /^été/, $options: '' } }, 'été', 'étê'],
    ['a prefix whose last character is before the surrogates', { words: { $regex: '^a\ud7ff' } }, 'a\ud7ff', 'a\ue000'],
  ])('narrows a prefix regular expression (%s) to a range of strings, mingo deciding', (_name, filter, from, to) => {
    const { sql, values, exact } = filterToSql(filter);
    expect(exact).toBe(false);
    expect(sql).toContain('json_extract(doc, \'$."words"\') >= ? AND json_extract(doc, \'$."words"\') < ?');
    expect(values).toEqual([from, to, from, to]);
  });

  it.each<[string, Filter]>([
    ['a flag', { words: /^doc/i }],
    ['$options', { words: { $regex: '^doc', $options: 'i' } }],
    ['a pattern character after the prefix', { words: { $regex: '^do.c' } }],
    ['no anchor', { words: { $regex: 'doc' } }],
    ['an escape class', { words: { $regex: '^doc\\d' } }],
    ['the anchor alone', { words: { $regex: '^' } }],
  ])('leaves a regular expression with %s unnarrowed', (_name, filter) => {
    expect(filterToSql(filter)).toEqual({ sql: '1', values: [], exact: false });
  });

  describe('with side tables', () => {
    const sideTables = new Map(['allowed', 'words', 'title_words'].map((field) => [field, `"c$mk$${field}"`]));
    const lists = (field: string) => `id IN (SELECT doc_id FROM "c$mk$${field}"`;
    const probes = (field: string) => `EXISTS (SELECT 1 FROM "c$mk$${field}" WHERE doc_id = id`;

    it('lists the elements of the field the chooser picks and probes the others', () => {
      const chooser = jest.fn(() => 'words');
      const { sql, exact } = filterToSql(
        { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'doc' },
        sideTables,
        chooser,
      );
      expect(exact).toBe(true);
      expect(chooser).toHaveBeenCalledWith([
        expect.objectContaining({ field: 'allowed', side: '"c$mk$allowed"' }),
        expect.objectContaining({ field: 'words', side: '"c$mk$words"' }),
      ]);
      const [{ elements, itself }] = (
        chooser.mock.calls[0] as unknown as [{ elements: unknown; itself: unknown }[]]
      )[0];
      expect(elements).toEqual({ sql: expect.stringContaining('value = ?'), values: ['Anonymous', 'user:x'] });
      expect(itself).toEqual({ sql: expect.stringContaining('json_extract'), values: ['Anonymous', 'user:x'] });
      expect(sql).toContain(lists('words'));
      expect(sql).toContain(probes('allowed'));
      expect(sql).not.toContain(lists('allowed'));
    });

    it('probes every side table when the filter names _id (SQLite starts from it)', () => {
      const { sql } = filterToSql(
        { _id: 'a', words: 'doc', $or: [{ allowed: 'x' }, { title_words: 'doc' }] },
        sideTables,
      );
      expect(sql).not.toContain('IN (SELECT doc_id');
      for (const field of ['words', 'allowed', 'title_words']) expect(sql).toContain(probes(field));
    });

    it('lists the elements in each branch of an $or the query starts from, and probes them under a field it starts from', () => {
      const alone = filterToSql({ $or: [{ words: 'doc' }, { title_words: 'doc' }] }, sideTables).sql;
      expect(alone).toContain(lists('words'));
      expect(alone).toContain(lists('title_words'));
      const under = filterToSql({ allowed: 'x', $or: [{ words: 'doc' }, { title_words: 'doc' }] }, sideTables).sql;
      expect(under).toContain(lists('allowed'));
      expect(under).toContain(probes('words'));
      expect(under).toContain(probes('title_words'));
    });
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

  it("pages a folder's items in the order of the compound index, as mingo does, and lists them when it may not", async () => {
    const items = store.collection('items');
    await items.createIndex({ parent: 1, position: 1 });
    await items.createIndex({ allowed: 1 });
    // 3 folders of 300 items, positions shuffled against insertion; every seventh item private to user:x.
    const docs: Record<string, unknown>[] = Array.from({ length: 900 }, (_, n) => ({
      _id: `i${n}`,
      parent: `p${n % 3}`,
      position: (n * 7919) % 900,
      allowed: n % 7 ? ['Anonymous'] : ['user:x'],
      tags: n % 5 ? ['a'] : ['a', 'b'],
    }));
    docs.push({ _id: 'rare', parent: 'p1', position: 5000, allowed: ['user:rare'] });
    for (const doc of docs) await items.insertOne(doc);
    const statements = jest.spyOn(store, 'statement');
    const walk = `INDEXED BY "${compoundIndexName('items', ['parent', 'position'])}"`;
    const page = async (filter: Filter, sort: Record<string, 1 | -1>, skip: number, limit: number) => {
      statements.mockClear();
      const found = (await items.find(filter, { sort, skip, limit })).map((doc) => doc._id);
      const [[field, direction]] = Object.entries(sort);
      const expected = docs
        .filter((doc) => new Query(filter).test(doc))
        .sort((a, b) => direction * ((a[field] as number) - (b[field] as number)))
        .slice(skip, skip + limit)
        .map((doc) => doc._id);
      expect(found).toEqual(expected);
      return statements.mock.calls.some(([sql]) => sql.startsWith('SELECT doc') && sql.includes(walk));
    };
    const anonymous = { allowed: { $in: ['Anonymous', 'user:y'] } };
    expect(await page({ parent: 'p1', ...anonymous }, { position: 1 }, 0, 25)).toBe(true);
    expect(await page({ parent: 'p2', ...anonymous }, { position: 1 }, 280, 25)).toBe(true);
    expect(await page({ parent: 'p0', ...anonymous }, { position: -1 }, 10, 5)).toBe(true);
    expect(await page({ parent: 'p0', position: { $lt: 400 }, ...anonymous }, { position: -1 }, 0, 1)).toBe(true);
    // A test SQL does not decide ($size): each row read in the index's order is tested by mingo.
    expect(await page({ parent: 'p1', tags: { $size: 2 } }, { position: 1 }, 3, 4)).toBe(true);
    // The query starts from a narrower field: its list is read, not the folder.
    expect(await page({ parent: 'p1', allowed: 'user:rare' }, { position: 1 }, 0, 25)).toBe(false);
    // An array at the field holding the value: the index lists that document under the array.
    await items.insertOne({ _id: 'both', parent: ['p1', 'p2'], position: -1, allowed: ['Anonymous'] });
    docs.push({ _id: 'both', parent: ['p1', 'p2'], position: -1, allowed: ['Anonymous'] });
    expect(await page({ parent: 'p1', ...anonymous }, { position: 1 }, 0, 3)).toBe(false);
    expect(await page({ parent: 'p0', ...anonymous }, { position: 1 }, 0, 3)).toBe(true);
  });

  it('probes the type-rank index of a field the query does not start from for an equality, never for a range', () => {
    const sides = new Map(['a', 'b'].map((field) => [field, `"items$mk$${field}"`]));
    const probes = { table: '"items"', ranked: new Map([['b', '"b_ranked"']]), arraysAt: () => undefined };
    const startFromA = () => 'a';
    expect(filterToSql({ a: 'x', b: 'y' }, sides, startFromA, probes).sql).toContain('INDEXED BY "b_ranked"');
    // A range probe would read the whole range for each row: the row's own value is tested instead.
    expect(filterToSql({ a: 'x', b: { $gt: 'y' } }, sides, startFromA, probes).sql).not.toContain('INDEXED BY');
  });

  it('answers a range on a dotted key from indexes, arrays on its way included', async () => {
    const items = store.collection('items');
    await items.createIndex({ 'pending.at': 1 }, { sparse: true });
    await items.insertOne({ _id: 'due', pending: { at: '2026-01-01' } });
    await items.insertOne({ _id: 'later', pending: { at: '2027-01-01' } });
    await items.insertOne({ _id: 'listed', pending: [{ at: '2025-01-01' }] });
    await items.insertOne({ _id: 'none' });
    const plan = store.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT count(*) FROM "items" WHERE ${filterToSql({ 'pending.at': { $lt: '2026-06-01' } }, new Map(), undefined, { table: '"items"', ranked: new Map(), arraysAt: (prefix) => (prefix === 'pending' ? `"${arraysIndexName('items', 'pending')}"` : undefined) }).sql}`,
      )
      .all('2026-06-01', '2026-06-01')
      .map((row) => (row as { detail: string }).detail)
      .join('\n');
    expect(plan).not.toMatch(/SCAN items$/m);
    expect(plan).toMatch(/USING INDEX items_pending_arrays/);
    const found = await items.find({ 'pending.at': { $lt: '2026-06-01' } });
    expect(found.map((doc) => doc._id).sort()).toEqual(['due', 'listed']);
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

  it('decides $ne, $nin, $exists and null in SQL as mingo does: missing fields, null, arrays and other types', async () => {
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
      [null],
      [1, null],
      [[null]],
      { x: null },
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
      { v: { $exists: true } },
      { v: { $exists: false } },
      { v: { $exists: true, $ne: 'a' } },
      { v: null },
      { v: { $ne: null } },
      { v: { $in: [null, 1] } },
      { v: { $nin: [null, 'a'] } },
      { $or: [{ v: null }, { v: { $lte: 1 } }] },
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

  describe('multikey indexes', () => {
    const side = (field: string) => `"${sideTableName('catalog', field)}"`;
    const sideTables = new Map(['allowed', 'path_parents', 'words'].map((field) => [field, side(field)]));
    const plan = (sql: string, values: unknown[]) =>
      store.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...values)
        .map((row) => (row as { detail: string }).detail);

    beforeEach(async () => {
      const catalog = store.collection('catalog');
      for (const field of ['allowed', 'path_parents', 'words', 'modified']) await catalog.createIndex({ [field]: 1 });
      await catalog.insertOne({
        _id: 'a',
        allowed: ['Anonymous'],
        path_parents: ['/', '/a', '/a/b'],
        words: ['document', 'one'],
        modified: 2,
      });
      await catalog.insertOne({
        _id: 'b',
        allowed: ['Manager', 'user:x'],
        path_parents: ['/', '/a'],
        words: ['document', 'two'],
        modified: 1,
      });
      await catalog.insertOne({ _id: 'c', allowed: 'Anonymous', path_parents: '/a/b', words: [], modified: 3 });
    });

    it.each<[string, Filter, string[]]>([
      ["a user's tokens", { allowed: { $in: ['Anonymous', 'user:x'] } }, ['a', 'b', 'c']],
      ['a subtree', { path_parents: '/a/b' }, ['a', 'c']],
      ['a word', { words: 'document' }, ['a', 'b']],
      ['a subtree a user may see', { allowed: { $in: ['Anonymous', 'user:x'] }, path_parents: '/a/b' }, ['a', 'c']],
      ['a word a user may see', { $and: [{ words: 'two' }, { allowed: { $in: ['Anonymous', 'user:x'] } }] }, ['b']],
    ])(
      'finds and counts %s from one side table, probing the others per row, scanning none',
      async (_name, filter, expected) => {
        const { sql, values, exact } = filterToSql(filter, sideTables);
        expect(exact).toBe(true);
        const [driving, ...probed] = [...JSON.stringify(filter).matchAll(/"(\w+)":/g)]
          .map((match) => match[1])
          .filter((key) => sideTables.has(key));
        for (const query of [`SELECT doc FROM "catalog" WHERE ${sql}`, `SELECT count(*) FROM "catalog" WHERE ${sql}`]) {
          const steps = plan(query, values);
          expect(steps.filter((step) => step.startsWith('SCAN'))).toEqual([]);
          expect(steps).toContain(`SEARCH ${sideTableName('catalog', driving)} USING PRIMARY KEY (type=? AND value=?)`);
          // Only the driving field's elements are listed (a list of another's would hold most of the table).
          const listed = steps.flatMap((step, i) => (step.startsWith('LIST SUBQUERY') ? [steps[i + 1]] : []));
          expect(listed.every((step) => step.startsWith(`SEARCH ${sideTableName('catalog', driving)} `))).toBe(true);
          for (const field of probed)
            expect(steps).toContainEqual(
              expect.stringMatching(
                new RegExp(`^SEARCH ${sideTableName('catalog', field).replace(/\$/g, '\\$')} .*doc_id=\\?`),
              ),
            );
        }
        const catalog = store.collection('catalog');
        expect((await catalog.find(filter)).map((doc) => doc._id).sort()).toEqual(expected);
        expect(await catalog.countDocuments(filter)).toBe(expected.length);
      },
    );

    it('answers a prefix of words from the range of its side table', async () => {
      const filter = { words: { $regex: '^doc' } };
      const { sql, values } = filterToSql(filter, sideTables);
      const steps = plan(`SELECT doc FROM "catalog" WHERE ${sql}`, values);
      expect(steps.filter((step) => step.startsWith('SCAN'))).toEqual([]);
      expect(steps).toContain(
        `SEARCH ${sideTableName('catalog', 'words')} USING PRIMARY KEY (type=? AND value>? AND value<?)`,
      );
      const catalog = store.collection('catalog');
      await catalog.insertOne({ _id: 'd', words: ['do', 'dod', 'docx'] });
      expect((await catalog.find(filter)).map((doc) => doc._id).sort()).toEqual(['a', 'b', 'd']);
    });

    it('starts from the side table that finds the fewest documents', async () => {
      const catalog = store.collection('catalog');
      const statements = jest.spyOn(store, 'statement');
      const filter = { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'one' };
      expect((await catalog.find(filter)).map((doc) => doc._id)).toEqual(['a']);
      const texts = statements.mock.calls.map(([sql]) => sql).filter((sql) => sql.startsWith('SELECT doc'));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toContain(`id IN (SELECT doc_id FROM ${side('words')}`);
      expect(texts[0]).toContain(`EXISTS (SELECT 1 FROM ${side('allowed')} WHERE doc_id = id`);
      expect(texts[0]).not.toContain(`id IN (SELECT doc_id FROM ${side('allowed')}`);
    });

    it('tells apart fields that both find more than the first bound of its counts', async () => {
      const catalog = store.collection('catalog');
      // 3,000 documents any user may see, 1,500 of them holding the word: both above the first bound (1,000).
      await Promise.all(
        Array.from({ length: 3000 }, (_, n) =>
          catalog.insertOne({ _id: `n${n}`, allowed: ['Anonymous'], words: n % 2 ? ['common'] : ['other'] }),
        ),
      );
      const statements = jest.spyOn(store, 'statement');
      for (const filter of [
        { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'common' },
        { words: 'common', allowed: { $in: ['Anonymous', 'user:x'] } },
      ])
        expect(await catalog.countDocuments(filter)).toBe(1500);
      const counts = statements.mock.calls
        .map(([sql]) => sql)
        .filter((sql) => sql.startsWith('SELECT count(*) AS n FROM "catalog" WHERE'));
      expect(counts).toHaveLength(2);
      for (const sql of counts) {
        expect(sql).toContain(`id IN (SELECT doc_id FROM ${side('words')}`);
        expect(sql).toContain(`EXISTS (SELECT 1 FROM ${side('allowed')} WHERE doc_id = id`);
      }
    });

    it("walks the sort field's index for a page most documents match, and lists them when the walk finds too few", async () => {
      const catalog = store.collection('catalog');
      // 3,000 documents, newer as n grows: half hold 'common' (spread through the order), the oldest 1,000 'old'.
      const docs = Array.from({ length: 3000 }, (_, n) => ({
        _id: `n${n}`,
        allowed: ['Anonymous'],
        words: [...(n % 2 ? ['common'] : []), ...(n < 1000 ? ['old'] : [])],
        modified: 10_000 + n,
      }));
      await Promise.all(docs.map((doc) => catalog.insertOne(doc)));
      const statements = jest.spyOn(store, 'statement');
      const pages = (word: string) => {
        const filter = { allowed: { $in: ['Anonymous', 'user:x'] }, words: word };
        const options = { sort: { modified: -1 as const }, skip: 3, limit: 5 };
        const expected = docs
          .filter((doc) => new Query(filter).test(doc))
          .sort((a, b) => b.modified - a.modified)
          .slice(3, 8)
          .map((doc) => doc._id);
        return { filter, options, expected };
      };
      const texts = () => statements.mock.calls.map(([sql]) => sql).filter((sql) => sql.startsWith('SELECT doc'));
      const walk = `INDEXED BY "${rankedIndexName('catalog', 'modified')}"`;

      const common = pages('common');
      expect((await catalog.find(common.filter, common.options)).map((doc) => doc._id)).toEqual(common.expected);
      expect(texts()).toHaveLength(1);
      expect(texts()[0]).toContain(walk);
      expect(texts()[0]).not.toContain(`id IN (SELECT doc_id FROM`);

      // The walk reads the newest rows, where no 'old' document is: the list of 'old' answers.
      statements.mockClear();
      const old = pages('old');
      expect((await catalog.find(old.filter, old.options)).map((doc) => doc._id)).toEqual(old.expected);
      expect(texts()).toHaveLength(2);
      expect(texts()[0]).toContain(walk);
      expect(texts()[1]).toContain(`id IN (SELECT doc_id FROM ${side('words')}`);

      // A page the query's own list finds quickly is not walked.
      statements.mockClear();
      await catalog.insertOne({ _id: 'rare', allowed: ['Anonymous'], words: ['rare'], modified: 1 });
      const rare = pages('rare');
      expect(await catalog.find(rare.filter, { ...rare.options, skip: 0 })).toHaveLength(1);
      expect(texts().some((sql) => sql.includes(walk))).toBe(false);
    });

    it('counts which field to start from once for a query asked again within a second', async () => {
      const catalog = store.collection('catalog');
      const statements = jest.spyOn(store, 'statement');
      const choiceCounts = () =>
        statements.mock.calls.filter(([sql]) => sql.startsWith('SELECT count(*) AS n FROM (SELECT 1')).length;
      const filter = { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'document' };
      const now = jest.spyOn(performance, 'now').mockReturnValue(1_000_000);
      expect(await catalog.countDocuments(filter)).toBe(2);
      const counted = choiceCounts();
      expect(counted).toBeGreaterThan(0);
      expect((await catalog.find(filter)).map((doc) => doc._id).sort()).toEqual(['a', 'b']);
      expect(choiceCounts()).toBe(counted);
      now.mockReturnValue(1_000_000 + 1_001);
      expect(await catalog.countDocuments(filter)).toBe(2);
      expect(choiceCounts()).toBe(2 * counted);
    });

    it('stops counting at 16,000 when every field finds more, and walks the sort field from there', async () => {
      const catalog = store.collection('catalog');
      await Promise.all(
        Array.from({ length: 17_000 }, (_, n) =>
          catalog.insertOne({ _id: `n${n}`, allowed: ['Anonymous'], words: ['common'], modified: n }),
        ),
      );
      const statement = Object.getPrototypeOf(store.db.prepare('SELECT 1')) as {
        get: (...args: unknown[]) => unknown;
        all: (...args: unknown[]) => unknown[];
      };
      const gets = jest.spyOn(statement, 'get');
      const alls = jest.spyOn(statement, 'all');
      try {
        const filter = { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'common' };
        const page = await catalog.find(filter, { sort: { modified: -1 }, limit: 3 });
        expect(page.map((doc) => doc._id)).toEqual(['n16999', 'n16998', 'n16997']);
        const bounds = gets.mock.calls
          .filter((_, i) =>
            (gets.mock.contexts[i] as { source: string }).source.startsWith('SELECT count(*) AS n FROM (SELECT 1'),
          )
          .map((args) => args.at(-1));
        expect(Math.max(...(bounds as number[]))).toBe(16_000);
        const walk = `INDEXED BY "${rankedIndexName('catalog', 'modified')}"`;
        expect(alls.mock.contexts.some((context) => (context as { source: string }).source.includes(walk))).toBe(true);
      } finally {
        gets.mockRestore();
        alls.mockRestore();
      }
    });

    it('reads the side tables a store opened later finds in the file', async () => {
      await store.close();
      store = openSqliteStore(join(dir, 'test.db'));
      const statements = jest.spyOn(store, 'statement');
      const catalog = store.collection('catalog');
      expect(await catalog.countDocuments({ words: 'document' })).toBe(2);
      expect((await catalog.find({ path_parents: '/a' }, { sort: { modified: -1 } })).map((doc) => doc._id)).toEqual([
        'a',
        'b',
      ]);
      const texts = statements.mock.calls.map(([sql]) => sql);
      expect(texts.some((sql) => sql.includes('count(*)') && sql.includes(side('words')))).toBe(true);
      expect(texts.some((sql) => sql.includes('SELECT doc') && sql.includes(side('path_parents')))).toBe(true);
      expect(texts.some((sql) => sql.includes('json_each'))).toBe(false);
    });

    it('keeps a side table exact through every write, a failing one undoing its rows too', async () => {
      const catalog = store.collection('catalog');
      await catalog.createIndex({ code: 1 }, { unique: true, sparse: true });
      const key = (row: { type: string; value: unknown; id: string }) => JSON.stringify([row.id, row.type, row.value]);
      const rows = () =>
        (
          store.db.prepare(`SELECT type, value, doc_id AS id FROM ${side('words')}`).all() as Parameters<
            typeof key
          >[0][]
        )
          .map(key)
          .sort();
      /** What the side table should hold: the scalar elements of each document's array, once each. */
      const expected = async () => {
        const found = new Set<string>();
        for (const doc of await catalog.find({})) {
          if (!Array.isArray(doc.words)) continue;
          for (const element of doc.words) {
            const type =
              typeof element === 'string'
                ? 'text'
                : typeof element === 'boolean'
                  ? String(element)
                  : typeof element === 'number'
                    ? Number.isInteger(element)
                      ? 'integer'
                      : 'real'
                    : undefined;
            if (!type) continue;
            const value = typeof element === 'boolean' ? Number(element) : element;
            found.add(key({ type, value, id: String(doc._id) }));
          }
        }
        return [...found].sort();
      };
      const check = async () => expect(rows()).toEqual(await expected());
      await check();
      await catalog.insertOne({ _id: 'd', words: ['x', 'x', 1.5, 2, false, null, ['n'], { k: 'v' }], code: 'd' });
      await check();
      await catalog.updateOne({ _id: 'a' }, { $set: { words: 'scalar' } });
      await catalog.updateOne({ _id: 'c' }, { $push: { words: 'pushed' } });
      await catalog.updateOne({ _id: 'd' }, { $pull: { words: 'x' } });
      await catalog.findOneAndUpdate({ _id: 'e' }, { $set: { words: ['up', 'serted'] } }, { upsert: true });
      await check();
      await catalog.updateOne({ _id: 'a' }, { $set: { words: ['back'] } });
      await catalog.deleteOne({ _id: 'b' });
      await check();
      // The second document's write breaks the unique code: updateMany's savepoint undoes the first one's rows.
      await catalog.updateOne({ _id: 'c' }, { $set: { code: 'c' } });
      const before = rows();
      await expect(
        catalog.updateMany({ _id: { $in: ['c', 'd'] } }, { $set: { words: ['lost'], code: 'same' } }),
      ).rejects.toThrow(/duplicate key/);
      expect(rows()).toEqual(before);
      await check();
      await catalog.deleteMany({});
      expect(rows()).toEqual([]);
    });

    it('names side tables apart from the index and triggers of another field', async () => {
      const catalog = store.collection('catalog');
      for (const field of ['words$doc_id', 'words$mk:insert', 'words$insert'])
        await catalog.createIndex({ [field]: 1 });
      await catalog.insertOne({ _id: 'd', words: ['x'], words$doc_id: ['x'], 'words$mk:insert': ['x'] });
      expect(await catalog.countDocuments({ words: 'x' })).toBe(1);
      expect(await catalog.countDocuments({ words$doc_id: 'x' })).toBe(1);
      expect(await catalog.countDocuments({ 'words$mk:insert': 'x' })).toBe(1);
    });

    it('counts the index once in the stats, and its side table in the size', async () => {
      const bytes = (name: string) =>
        (store.db.prepare('SELECT sum(pgsize) AS n FROM dbstat WHERE name = ?').get(name) as { n: number }).n;
      const stats = await store.stats();
      const catalog = stats.collections.find((collection) => collection.name === 'catalog')!;
      expect(catalog.indexes).toBe(4);
      expect(stats.collections.map((collection) => collection.name)).toEqual(['catalog']);
      expect(bytes(sideTableName('catalog', 'words'))).toBeGreaterThan(0);
      expect(bytes('catalog$mk:doc_id$words')).toBeGreaterThan(0);
      // Every page of the file but SQLite's own (the schema, the primary key's automatic index): the collection's
      // table, its four indexes, its four side tables and their indexes.
      const everything = store.db
        .prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'")
        .get() as { n: number };
      expect(catalog.sizeBytes).toBe(everything.n);
    });
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

describe('posting lists', () => {
  afterEach(() => jest.restoreAllMocks());

  const values: unknown[] = [
    undefined,
    null,
    true,
    false,
    1,
    2,
    1.5,
    '1',
    'a',
    'b',
    [],
    [1],
    [1, 'a'],
    ['a', true],
    [[1]],
    { x: 1 },
  ];
  // A seeded choice, the same on every run.
  let seed = 7;
  const pick = <T>(items: readonly T[]): T => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return items[seed % items.length];
  };
  const scalars = [true, false, 1, 2, 1.5, '1', 'a', 'b'];
  const leaf = (): Filter => {
    const field = pick(['v', 'w']);
    const op = pick(['eq', '$eq', '$in', '$ne', '$nin']);
    if (op === 'eq') return { [field]: pick(scalars) };
    const arg = op === '$in' || op === '$nin' ? [pick(scalars), pick(scalars)] : pick(scalars);
    return { [field]: { [op]: arg } };
  };
  const filterOf = (depth: number): Filter => {
    if (depth === 0) return leaf();
    const kind = pick(['leaf', '$and', '$or', 'both']);
    if (kind === 'leaf') return leaf();
    if (kind === 'both') return { ...leaf(), ...filterOf(depth - 1) };
    return { [kind]: [filterOf(depth - 1), filterOf(depth - 1)] };
  };

  async function catalogOf(size: number) {
    const items = store.collection('items');
    for (const field of ['v', 'w']) await items.createIndex({ [field]: 1 });
    const docs = Array.from({ length: size }, (_, i) => {
      const doc: Record<string, unknown> = { _id: `d${i}` };
      for (const field of ['v', 'w']) {
        const value = pick(values);
        if (value !== undefined) doc[field] = value;
      }
      return doc;
    });
    await Promise.all(docs.map((doc) => items.insertOne(doc)));
    return items;
  }

  function listsOf() {
    const sides = new Map(['v', 'w'].map((field) => [field, `"${sideTableName('items', field)}"`]));
    const ranked = new Map(['v', 'w'].map((field) => [field, `"${rankedIndexName('items', field)}"`]));
    const lists = new PostingLists(store.db, '"items"', () => store.othersVersion());
    return { count: (filter: Filter) => lists.count(filter, { sideTables: sides, ranked }, () => true) };
  }

  it('counts what mingo matches, for equalities, $in, $ne, $nin, $and and $or on scalars and arrays', async () => {
    const items = await catalogOf(300);
    const docs = await items.find({});
    const lists = listsOf();
    for (let i = 0; i < 300; i++) {
      const filter = filterOf(2);
      const expected = new Query(filter).find(docs).all().length;
      expect({ filter, count: lists.count(filter) }).toEqual({ filter, count: expected });
    }
  });

  it('leaves to SQL what is not made of posting lists', async () => {
    await catalogOf(10);
    const lists = listsOf();
    for (const filter of [
      { v: null },
      { v: { $gt: 1 } },
      { v: /a/ },
      { x: 1 },
      { _id: 'd1' },
      { v: [1] },
      { $nor: [{ v: 1 }] },
    ])
      expect(lists.count(filter)).toBeUndefined();
  });

  it("follows this process's writes, and drops its lists at another's", async () => {
    const items = store.collection('items');
    for (const field of ['all', 'tag', 'v', 'w']) await items.createIndex({ [field]: 1 });
    // Every document holds `all` and `tag`: the query starts from a field listing 5,000, so it is counted from lists.
    await Promise.all(
      Array.from({ length: 5000 }, (_, i) => {
        const [v, w] = [pick(values), pick(values)];
        return items.insertOne({ _id: `d${i}`, all: 'x', tag: ['y'], ...(v === undefined ? {} : { v }), w });
      }),
    );
    const filter = { all: 'x', tag: 'y', v: { $nin: [1, 'a'] }, w: { $ne: true } };
    const counts = jest.spyOn(PostingLists.prototype, 'count');
    const builds = jest.spyOn(store.db, 'prepare');
    const check = async () => {
      const expected = new Query(filter).find(await items.find({})).all().length;
      counts.mockClear();
      expect(await items.countDocuments(filter)).toBe(expected);
      expect(counts.mock.results.map((result) => result.value)).toEqual([expected]);
    };
    const listsBuilt = () => builds.mock.calls.filter(([sql]) => sql.includes('SELECT rowid FROM')).length;
    await check();
    let built = listsBuilt();
    await items.insertOne({ _id: 'new', all: 'x', tag: ['y', 'z'], v: ['b'], w: false });
    await items.updateOne({ _id: 'd1' }, { $set: { v: 1, w: 'x' } });
    await items.updateOne({ _id: 'd2' }, { $set: { v: [2, 'q'], w: [false, true] } });
    await items.updateMany({ v: 'b' }, { $set: { w: 'changed' } });
    await items.deleteOne({ _id: 'd3' });
    await items.deleteMany({ v: 2 });
    await check();
    expect(listsBuilt()).toBe(built);
    // A new index drops the lists.
    await items.createIndex({ uniq: 1 }, { unique: true, sparse: true });
    await check();
    expect(listsBuilt()).toBeGreaterThan(built);
    built = listsBuilt();
    // A write that fails after changing a row is undone, and changes no list; the writes beside it stay.
    await Promise.all([
      items.insertOne({ _id: 'late', all: 'x', tag: 'y' }),
      expect(items.updateMany({ _id: { $in: ['d5', 'd6'] } }, { $set: { uniq: 'same', w: true } })).rejects.toThrow(
        /duplicate/i,
      ),
    ]);
    await check();
    expect(listsBuilt()).toBe(built);
    const other = openSqliteStore(join(dir, 'test.db'));
    try {
      await other.collection('items').insertOne({ _id: 'theirs', all: 'x', tag: 'y', v: 'c' });
    } finally {
      await other.close();
    }
    await check();
    expect(listsBuilt()).toBeGreaterThan(built);
  });

  it('pages what mingo matches by rowid from the lists, testing the rest of the filter on each row', async () => {
    const items = store.collection('items');
    for (const field of ['all', 'tag', 'v', 'w']) await items.createIndex({ [field]: 1 });
    // `all` and `tag` list every document (4,000: the query's lists are built), `u` has no index: it is the rest
    // each row is tested for.
    const docs = Array.from({ length: 4000 }, (_, i) => {
      const doc: Record<string, unknown> = { _id: `d${i}`, all: 'x', tag: ['y'], n: (i * 7919) % 4000 };
      doc.u = pick([1, 2, 'a']);
      for (const field of ['v', 'w']) {
        const value = pick(values);
        if (value !== undefined) doc[field] = value;
      }
      return doc;
    });
    await Promise.all(docs.map((doc) => items.insertOne(doc)));
    const statements = jest.spyOn(store, 'statement');
    const byRowid = 'rowid IN (SELECT value FROM json_each(?))';
    let readByRowid = 0;
    for (let i = 0; i < 60; i++) {
      const rest = pick<Filter>([{}, { u: 1 }, { u: { $in: [2, 'a'] } }, { u: { $type: 'string' } }]);
      const filter = { all: 'x', tag: 'y', ...filterOf(1), ...rest };
      const [skip, limit, direction] = [pick([0, 3, 40]), pick([1, 10, 25]), pick([1, -1] as const)];
      statements.mockClear();
      const page = await items.find(filter, { sort: { n: direction }, skip, limit });
      const expected = docs
        .filter((doc) => new Query(filter).test(doc))
        .sort((a, b) => direction * ((a.n as number) - (b.n as number)))
        .slice(skip, skip + limit);
      expect({ filter, page: page.map((doc) => doc._id) }).toEqual({ filter, page: expected.map((doc) => doc._id) });
      if (statements.mock.calls.some(([sql]) => sql.includes(byRowid))) readByRowid += 1;
    }
    expect(readByRowid).toBeGreaterThan(40);

    // An unsorted page reads by rowid from kept lists only: building them would cost more than SQL stopping at its
    // last match.
    const lists = jest.spyOn(PostingLists.prototype, 'matches');
    statements.mockClear();
    expect(await items.find({ all: 'x', tag: 'y', v: 'never-listed' }, { limit: 2 })).toEqual([]);
    expect(lists.mock.results.map((result) => result.value)).toEqual([undefined]);
    expect(await items.find({ all: 'x', tag: 'y' }, { limit: 2 })).toHaveLength(2);
    expect(statements.mock.calls.filter(([sql]) => sql.includes(byRowid))).toHaveLength(1);
    lists.mockRestore();

    // Another process's commit between the lists and the rows read by them: the page is read again without them.
    const filter = { all: 'x', tag: 'y', u: 1 };
    const first = (await items.find(filter, { sort: { n: 1 }, limit: 1 }))[0];
    const other = openSqliteStore(join(dir, 'test.db'));
    try {
      const prepare = SqliteStore.prototype.statement.bind(store);
      statements.mockImplementation((sql) => {
        if (sql.includes(byRowid))
          other.db
            .prepare('UPDATE "items" SET doc = json_set(doc, \'$.tag\', json(\'["z"]\')) WHERE id = ?')
            .run(first._id);
        return prepare(sql);
      });
      const page = await items.find(filter, { sort: { n: 1 }, limit: 1 });
      expect(page[0]._id).not.toBe(first._id);
      expect(page[0]).toMatchObject({ tag: ['y'], u: 1 });
    } finally {
      await other.close();
    }
    statements.mockRestore();

    // Inside a group commit the lists lack the group's earlier writes: a write's own query reads without them.
    const listed = { all: 'x', tag: 'y' };
    const [firstNow] = await items.find(listed, { sort: { n: 1 }, limit: 1 });
    const [, taken] = await Promise.all([
      items.updateOne({ _id: firstNow._id }, { $set: { tag: ['z'] } }),
      items.findOneAndUpdate(listed, { $set: { taken: true } }, { sort: { n: 1 } }),
    ]);
    expect(taken?._id).not.toBe(firstNow._id);
    expect(taken?.tag).toEqual(['y']);
  });

  it('counts by rowid from the lists what the rest of the filter holds for, in full or to a limit', async () => {
    const items = store.collection('items');
    for (const field of ['all', 'tag', 'v', 'n']) await items.createIndex({ [field]: 1 });
    const docs = Array.from({ length: 4000 }, (_, i) => {
      const doc: Record<string, unknown> = { _id: `d${i}`, all: 'x', tag: ['y'], n: i };
      const v = pick(values);
      if (v !== undefined) doc.v = v;
      return doc;
    });
    await Promise.all(docs.map((doc) => items.insertOne(doc)));
    const statements = jest.spyOn(store, 'statement');
    const byRowid = (sql: string) => sql.startsWith('SELECT count(*)') && sql.includes('rowid IN (SELECT value');
    const check = async (filter: Filter, limit?: number) => {
      statements.mockClear();
      const matched = docs.filter((doc) => new Query(filter).test(doc)).length;
      const expected = limit ? Math.min(matched, limit) : matched;
      expect({ filter, limit, count: await items.countDocuments(filter, { limit }) }).toEqual({
        filter,
        limit,
        count: expected,
      });
      return statements.mock.calls.some(([sql]) => byRowid(sql));
    };
    let readByRowid = 0;
    for (let i = 0; i < 40; i++) {
      const [low, high] = [pick([0, 100, 2000]), pick([50, 1500, 4000])];
      const filter = { all: 'x', tag: 'y', ...pick<Filter>([{}, leaf()]), n: { $gte: low, $lt: high } };
      if (await check(filter, pick([undefined, 10, 500]))) readByRowid += 1;
    }
    // The others start from the range of `n`'s index, where it finds fewer documents: SQL reads them.
    expect(readByRowid).toBeGreaterThan(15);

    // A query that starts from no field (each finds 16,000 or more, in a larger collection) counts to its limit from
    // the lists' first rows, and leaves it to SQL when they hold too few matches.
    const collection = Object.getPrototypeOf(items) as { countDriving: () => unknown };
    jest.spyOn(collection, 'countDriving').mockReturnValue({ field: null, count: 16_000 });
    expect(await check({ all: 'x', tag: 'y', n: { $lt: 100 } }, 5)).toBe(true);
    statements.mockClear();
    expect(await check({ all: 'x', tag: 'y', n: { $gte: 3990 } }, 5)).toBe(true);
    expect(statements.mock.calls.filter(([sql]) => sql.startsWith('SELECT count(*)'))).toHaveLength(2);

    // Another process's commit between the lists and the rows read by them: counted again without them.
    const other = openSqliteStore(join(dir, 'test.db'));
    try {
      const prepare = SqliteStore.prototype.statement.bind(store);
      statements.mockImplementation((sql) => {
        if (byRowid(sql)) other.db.prepare(`UPDATE "items" SET doc = json_set(doc, '$.tag', json('["z"]'))`).run();
        return prepare(sql);
      });
      expect(await items.countDocuments({ all: 'x', tag: 'y', n: { $lt: 100 } }, { limit: 5 })).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('counts a query that starts from a field listing many documents from its lists', async () => {
    const items = store.collection('catalog');
    for (const field of ['allowed', 'words']) await items.createIndex({ [field]: 1 });
    await Promise.all(
      Array.from({ length: 5000 }, (_, n) =>
        items.insertOne({ _id: `n${n}`, allowed: ['Anonymous'], words: n % 5 ? ['common'] : ['rare'] }),
      ),
    );
    const counts = jest.spyOn(PostingLists.prototype, 'count');
    const broad = { allowed: { $in: ['Anonymous', 'user:x'] }, words: 'common' };
    expect(await items.countDocuments(broad)).toBe(4000);
    expect(counts.mock.results.map((result) => result.value)).toEqual([4000]);
    // The lists of the narrow query's other fields are kept now: it is counted from them too.
    expect(await items.countDocuments({ ...broad, words: 'rare' })).toBe(1000);
    expect(counts.mock.results.map((result) => result.value)).toEqual([4000, 1000]);
    await items.insertOne({ _id: 'x', allowed: ['user:x'], words: ['rare'] });
    expect(await items.countDocuments({ ...broad, words: 'rare' })).toBe(1001);
    // After another process's write the lists are gone, and the narrow query does not build the other fields' lists.
    const other = openSqliteStore(join(dir, 'test.db'));
    try {
      await other.collection('catalog').insertOne({ _id: 'y', allowed: ['user:x'], words: ['rare'] });
    } finally {
      await other.close();
    }
    expect(await items.countDocuments({ ...broad, words: 'rare' })).toBe(1002);
    expect(counts.mock.results.map((result) => result.value)).toEqual([4000, 1000, 1001, undefined]);
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
