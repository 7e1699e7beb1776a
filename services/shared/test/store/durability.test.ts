/**
 * The embedded store's file: group-committed appends that lose no acknowledged
 * write when the process is killed, a torn last record ignored, NeDB's files
 * opened as they are, and a batch the disk refuses undone with every write
 * applied after it.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Datastore from '@seald-io/nedb';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import { markHolderCrashed } from './crashed-holder';
import { killWriterMidway } from './killed-writer';
import type { Document } from '../../src/ports/store';

const BUILT = path.join(__dirname, '../../dist/adapters/store/embedded/embedded-store.js');

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'store-durability-'));
});

afterEach(async () => {
  jest.restoreAllMocks();
  await fs.rm(dir, { recursive: true, force: true });
});

const ids = (docs: Document[]): string[] => docs.map((doc) => String(doc._id)).sort();

describe('embedded store durability', () => {
  it('keeps every insert acknowledged to ten concurrent writers when the process is killed', async () => {
    const lines = await killWriterMidway('concurrent-writer.js', ['insert', dir], BUILT, 500);
    const acknowledged = lines.map((line) => line.split(' ')[1]);
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    expect(await items.countDocuments({ _id: { $in: acknowledged } })).toBe(acknowledged.length);
    await store.close();
  });

  it('keeps every acknowledged update through background compactions when the process is killed', async () => {
    const seeded = await openEmbeddedStore(dir);
    const items = seeded.collection('items');
    await items.createIndex({ n: 1 });
    for (let i = 0; i < 50; i += 1) await items.insertOne({ _id: `d${i}`, n: 0 });
    await seeded.close();

    // 50 documents: a compaction is due every 1,000 appended records, so several run before the kill.
    const lines = await killWriterMidway('concurrent-writer.js', ['update', dir, '50'], BUILT, 3000);
    const highest = new Map<string, number>();
    for (const line of lines) {
      const [, id, n] = line.split(' ');
      highest.set(id, Math.max(highest.get(id) ?? 0, Number(n)));
    }
    // Compacted meanwhile: the file holds far fewer records than the writes acknowledged.
    const records = (await fs.readFile(path.join(dir, 'items.db'), 'utf8')).split('\n').filter(Boolean);
    expect(records.length).toBeLessThan(lines.length);
    const store = await openEmbeddedStore(dir);
    const docs = await store.collection('items').find({});
    expect(docs).toHaveLength(50);
    for (const doc of docs) expect(doc.n).toBeGreaterThanOrEqual(highest.get(String(doc._id)) ?? 0);
    // The index survived the rewrites.
    expect(await store.collection('items').countDocuments({ n: { $gte: 0 } })).toBe(50);
    await store.close();
  });

  it('ignores a torn last record, keeps one without its newline, and appends whole lines after them', async () => {
    const file = path.join(dir, 'items.db');
    const index = JSON.stringify({ $$indexCreated: { fieldName: 'k', unique: true, sparse: false } });
    await fs.writeFile(file, `${index}\n{"_id":"a","k":1}\n{"_id":"b","k":2}\n{"_id":"c","k":3,"pad":"xx`);
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    expect(ids(await items.find({}))).toEqual(['a', 'b']);
    await items.insertOne({ _id: 'c', k: 3 });
    await expect(items.insertOne({ _id: 'd', k: 3 })).rejects.toThrow(/duplicate key/);

    // No close: a restart after a crash.
    await markHolderCrashed(dir);
    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection('items').find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', k: 1 },
      { _id: 'b', k: 2 },
      { _id: 'c', k: 3 },
    ]);
    await reopened.close();
    await store.close();

    await fs.writeFile(file, '{"_id":"a","k":1}\n{"_id":"b","k":2}');
    const unterminated = await openEmbeddedStore(dir);
    await unterminated.collection('items').insertOne({ _id: 'e', k: 5 });
    await markHolderCrashed(dir);
    const again = await openEmbeddedStore(dir);
    expect(ids(await again.collection('items').find({}))).toEqual(['a', 'b', 'e']);
    await again.close();
    await unterminated.close();
  });

  it('refuses a file most of whose lines are corrupt rather than load a part of it', async () => {
    await fs.writeFile(path.join(dir, 'items.db'), '{"_id":"a"}\nnot json\nnor this\n{"_id":"b"}\n');
    const store = await openEmbeddedStore(dir);
    await expect(store.collection('items').find({})).rejects.toThrow(/corrupt/);
    await store.close();
  });

  it('opens a data file written by NeDB: documents, dates, deletions and indexes', async () => {
    const file = path.join(dir, 'items.db');
    const nedb = new Datastore({ filename: file });
    await nedb.loadDatabaseAsync();
    await nedb.ensureIndexAsync({ fieldName: 'email', unique: true });
    await nedb.insertAsync({ _id: 'u1', email: 'a@example.org', at: new Date('2026-01-02T03:04:05Z'), tags: ['x'] });
    await nedb.insertAsync({ _id: 'u2', email: 'b@example.org' });
    await nedb.insertAsync({ _id: 'u3', email: 'c@example.org' });
    await nedb.updateAsync({ _id: 'u2' }, { $set: { email: 'bb@example.org' } });
    await nedb.removeAsync({ _id: 'u3' }, {});

    const store = await openEmbeddedStore(dir);
    const users = store.collection('items');
    const docs = await users.find({}, { sort: { _id: 1 } });
    expect(docs).toEqual([
      { _id: 'u1', email: 'a@example.org', at: new Date('2026-01-02T03:04:05Z'), tags: ['x'] },
      { _id: 'u2', email: 'bb@example.org' },
    ]);
    expect(docs[0].at).toBeInstanceOf(Date);
    await expect(users.insertOne({ _id: 'u4', email: 'a@example.org' })).rejects.toThrow(/duplicate key/);
    await users.updateOne({ _id: 'u1' }, { $set: { at: new Date('2026-02-03T00:00:00Z') } });
    await store.close();

    // The compacted file is still NeDB's format.
    const back = new Datastore({ filename: file });
    await back.loadDatabaseAsync();
    expect(await back.findOneAsync({ _id: 'u1' })).toEqual({
      _id: 'u1',
      email: 'a@example.org',
      at: new Date('2026-02-03T00:00:00Z'),
      tags: ['x'],
    });
    await expect(back.insertAsync({ _id: 'u5', email: 'bb@example.org' })).rejects.toMatchObject({
      errorType: 'uniqueViolated',
    });
  });

  it('ignores what a compaction killed half-way left beside the file', async () => {
    await fs.writeFile(path.join(dir, 'items.db'), '{"_id":"a","n":1}\n');
    await fs.writeFile(path.join(dir, 'items.db~'), '{"_id":"zombie","n":1}\n{"_id":"a","n');
    const store = await openEmbeddedStore(dir);
    expect(await store.collection('items').find({})).toEqual([{ _id: 'a', n: 1 }]);
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection('items').find({})).toEqual([{ _id: 'a', n: 1 }]);
    await reopened.close();
  });

  it('compacts records larger than the compaction buffer and slices that overflow it, multi-byte text included', async () => {
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    // ~3 MB of records (more than one slice fills the 1 MB buffer), one record of 1.5 MB on its own, and text
    // whose UTF-8 is longer than its UTF-16.
    const docs: Document[] = Array.from({ length: 1500 }, (_, i) => ({ _id: `d${i}`, text: `é€😀 ${i} `.repeat(200) }));
    docs.splice(700, 0, { _id: 'huge', text: 'ü'.repeat(750_000) });
    for (const doc of docs) await items.insertOne(doc);
    await store.close();
    const lines = (await fs.readFile(path.join(dir, 'items.db'), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(docs.length);
    const reopened = await openEmbeddedStore(dir);
    const back = await reopened.collection('items').find({});
    expect(back.sort((a, b) => String(a._id).localeCompare(String(b._id)))).toEqual(
      [...docs].sort((a, b) => String(a._id).localeCompare(String(b._id))),
    );
    await reopened.close();
  });

  it('writes the records of concurrent writes in shared batches', async () => {
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    await items.insertOne({ _id: 'first' });
    const file = path.join(dir, 'items.db');
    const stat = fs.stat.bind(fs);
    const appends: unknown[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Each batch first checks that the path still names the open file.
    jest.spyOn(fs, 'stat').mockImplementation((async (target: string) => {
      if (target === file) {
        appends.push(target);
        // The first batch waits until every other write has been applied in memory and queued behind it.
        if (appends.length === 1) await gate;
      }
      return stat(target);
    }) as typeof fs.stat);
    const writes = Array.from({ length: 20 }, (_, i) => items.insertOne({ _id: `w${i}` }));
    while ((await items.countDocuments({})) < 21) await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all(writes);
    expect(appends).toHaveLength(2);
    await store.close();
    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection('items').countDocuments({})).toBe(21);
    await reopened.close();
  });

  it('appends to a new file at its path when the file was moved away, as a restart reads it', async () => {
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    await items.insertOne({ _id: 'before' });
    const file = path.join(dir, 'items.db');
    await fs.rename(file, `${file}.moved`);
    await items.insertOne({ _id: 'after' });
    const moved = await fs.readFile(`${file}.moved`, 'utf8');
    const current = await fs.readFile(file, 'utf8');
    expect(moved).not.toContain('after');
    expect(current).toContain('"_id":"after"');
    await markHolderCrashed(dir);
    const reopened = await openEmbeddedStore(dir);
    expect(ids(await reopened.collection('items').find({}))).toEqual(['after']);
    await reopened.close();
    await store.close();
  });

  it('undoes a refused batch together with the writes applied after it', async () => {
    const store = await openEmbeddedStore(dir);
    const items = store.collection('items');
    await items.insertOne({ _id: 'a', n: 0 });
    const file = path.join(dir, 'items.db');
    await fs.rename(file, `${file}.aside`);
    await fs.mkdir(file);
    const results = await Promise.allSettled([
      items.updateOne({ _id: 'a' }, { $inc: { n: 1 } }),
      ...Array.from({ length: 9 }, (_, i) => items.insertOne({ _id: `x${i}` })),
      items.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }),
    ]);
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(await items.find({})).toEqual([{ _id: 'a', n: 0 }]);

    await fs.rmdir(file);
    await fs.rename(`${file}.aside`, file);
    expect(await items.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } })).toEqual({ _id: 'a', n: 1 });
    await markHolderCrashed(dir);
    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection('items').find({})).toEqual([{ _id: 'a', n: 1 }]);
    await reopened.close();
    await store.close();
  });
});
