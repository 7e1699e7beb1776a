/**
 * The one-time carry-over of an embedded data folder into a SQLite file (carry-over.ts), and the service start that
 * runs it (`openServiceStore` with STORE_URL=sqlite:).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryEmbeddedToSqlite } from '../../src/adapters/store/carry-over';
import { openEmbeddedStore } from '../../src/adapters/store/embedded/embedded-store';
import { openSqliteStore } from '../../src/adapters/store/sqlite';
import type { Document, DocumentStore } from '../../src/ports/store';
import { openServiceStore } from '../../src/runtime/infrastructure';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'carry-over-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const byId = (a: Document, b: Document) => String(a._id).localeCompare(String(b._id));

/** An embedded folder with two collections: 2,500 documents (more than one batch) and a few nested ones. */
async function embeddedFolder(folder: string): Promise<{ items: Document[]; others: Document[] }> {
  const store = await openEmbeddedStore(folder);
  const items = Array.from({ length: 2_500 }, (_, i) => ({
    _id: `item-${String(i).padStart(5, '0')}`,
    title: `Item ${i}`,
    tags: i % 3 === 0 ? ['a', 'b'] : [],
    position: i,
  }));
  const others = [
    { _id: 'x', nested: { list: [1, { deep: true }], none: null }, text: 'ünïcode ✓' },
    { _id: 'y', empty: {} },
  ];
  await Promise.all(items.map((doc) => store.collection('items').insertOne(doc)));
  for (const doc of others) await store.collection('others').insertOne(doc);
  await store.close();
  return { items, others };
}

async function everything(store: DocumentStore, name: string): Promise<Document[]> {
  return (await store.collection(name).find({})).sort(byId);
}

describe('carryEmbeddedToSqlite', () => {
  it('carries every collection over, leaves the folder as it was, and carries nothing the next time', async () => {
    const folder = join(dir, 'content');
    const { items, others } = await embeddedFolder(folder);
    const filesBefore = readdirSync(folder).sort();
    const file = join(dir, 'sqlite', 'cms_content.db');

    const report = await carryEmbeddedToSqlite(folder, file);
    expect(report).toMatchObject({
      from: folder,
      to: file,
      documents: 2_502,
      collections: [
        { name: 'items', documents: 2_500 },
        { name: 'others', documents: 2 },
      ],
    });
    expect(readdirSync(folder).sort()).toEqual(filesBefore);
    expect(readdirSync(join(dir, 'sqlite'))).toEqual(['cms_content.db']);

    const sqlite = openSqliteStore(file);
    try {
      expect(await everything(sqlite, 'items')).toEqual(items);
      expect(await everything(sqlite, 'others')).toEqual(others);
      // A write after the carry-over, which the next call must not undo.
      await sqlite.collection('others').deleteOne({ _id: 'y' });
    } finally {
      await sqlite.close();
    }
    expect(await carryEmbeddedToSqlite(folder, file)).toBeUndefined();
    const again = openSqliteStore(file);
    try {
      expect(await again.collection('others').countDocuments({})).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('starts again over what a killed carry-over left', async () => {
    const folder = join(dir, 'search');
    await embeddedFolder(folder);
    const file = join(dir, 'cms_search.db');
    const left = openSqliteStore(`${file}.carrying`);
    await left.collection('items').insertOne({ _id: 'item-00000', title: 'half-carried' });
    await left.collection('stray').insertOne({ _id: 'stray' });
    await left.close();

    expect((await carryEmbeddedToSqlite(folder, file))?.documents).toBe(2_502);
    expect(existsSync(`${file}.carrying`)).toBe(false);
    const sqlite = openSqliteStore(file);
    try {
      expect(await sqlite.collection('items').findOne({ _id: 'item-00000' })).toMatchObject({ title: 'Item 0' });
      expect(await sqlite.collection('stray').countDocuments({})).toBe(0);
    } finally {
      await sqlite.close();
    }
  });

  it('carries nothing from a folder that is missing or holds no collection', async () => {
    const file = join(dir, 'cms_content.db');
    expect(await carryEmbeddedToSqlite(join(dir, 'missing'), file)).toBeUndefined();
    writeFileSync(join(dir, 'notes.txt'), 'not a collection');
    expect(await carryEmbeddedToSqlite(dir, join(dir, 'sqlite', 'cms_content.db'))).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'sqlite'))).toBe(false);
  });

  it('does not take the other services’ SQLite files in the data folder for collections', async () => {
    const folder = join(dir, 'content');
    const other = openSqliteStore(join(folder, 'cms_search.db'));
    await other.collection('catalog').insertOne({ _id: 'entry' });
    await other.close();
    expect(await carryEmbeddedToSqlite(folder, join(folder, 'cms_content.db'))).toBeUndefined();
  });
});

describe('openServiceStore with STORE_URL=sqlite:', () => {
  it('opens the service’s SQLite store holding what its embedded folder held', async () => {
    const { items } = await embeddedFolder(join(dir, 'data', 'discussion'));
    const config = { STORE_URL: `sqlite://${join(dir, 'sqlite')}`, DATA_DIR: join(dir, 'data') };
    const store = await openServiceStore('discussion', config);
    try {
      expect(store.kind).toBe('sqlite');
      expect(await store.collection('items').countDocuments({})).toBe(items.length);
    } finally {
      await store.close();
    }
    expect(existsSync(join(dir, 'sqlite', 'cms_discussion.db'))).toBe(true);
  });
});
