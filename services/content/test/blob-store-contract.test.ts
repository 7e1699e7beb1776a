/**
 * One contract for every adapter of the blob store port. The embedded adapter
 * is always tested; GridFS too when MONGO_URL is set (in a throwaway database).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import { openEmbeddedBlobStore } from '../src/store/blobs/embedded';
import { openGridFsBlobStore } from '../src/store/blobs/gridfs';
import { openBlobStoreAt } from '../src/store/blobs/open';
import { isBlobId, type BlobStore } from '../src/store/blobs/port';

interface Adapter {
  name: string;
  open(): Promise<BlobStore>;
  cleanup(): Promise<void>;
}

function embeddedAdapter(): Adapter {
  let dir: string | undefined;
  return {
    name: 'embedded',
    async open() {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-contract-'));
      return openEmbeddedBlobStore(dir);
    },
    async cleanup() {
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

function gridFsAdapter(url: string): Adapter {
  const dbName = `blob_contract_${process.pid}_${Date.now()}`;
  return {
    name: 'gridfs',
    open: () => openGridFsBlobStore(url, dbName),
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

const adapters: Adapter[] = [embeddedAdapter()];
if (process.env.MONGO_URL) adapters.push(gridFsAdapter(process.env.MONGO_URL));

describe.each(adapters)('blob store contract: $name', (adapter) => {
  let blobs: BlobStore;

  beforeAll(async () => {
    blobs = await adapter.open();
  });
  afterAll(async () => {
    await blobs.close();
    await adapter.cleanup();
  });

  it('gives back the bytes it was given, under a new id each time', async () => {
    const bytes = randomBytes(1000);
    const first = await blobs.put(bytes);
    const second = await blobs.put(bytes);
    expect(isBlobId(first)).toBe(true);
    expect(second).not.toBe(first);
    expect((await blobs.get(first))?.equals(bytes)).toBe(true);
    expect((await blobs.get(second))?.equals(bytes)).toBe(true);
  });

  it('keeps an empty blob and a blob larger than one GridFS chunk', async () => {
    const empty = await blobs.put(Buffer.alloc(0));
    expect(await blobs.get(empty)).toEqual(Buffer.alloc(0));
    expect(await blobs.has(empty)).toBe(true);
    // GridFS splits at 255 KiB: this spans three chunks, the last one partial.
    const large = randomBytes(600 * 1024 + 7);
    const id = await blobs.put(large);
    expect((await blobs.get(id))?.equals(large)).toBe(true);
  });

  it('deletes a blob once; a second delete and a read find nothing', async () => {
    const id = await blobs.put(Buffer.from('doomed'));
    expect(await blobs.has(id)).toBe(true);
    expect(await blobs.delete(id)).toBe(true);
    expect(await blobs.has(id)).toBe(false);
    expect(await blobs.get(id)).toBeNull();
    expect(await blobs.delete(id)).toBe(false);
  });

  it('finds nothing under an unknown id or a malformed one (never a path)', async () => {
    const unknown = 'f'.repeat(32);
    expect(await blobs.get(unknown)).toBeNull();
    expect(await blobs.has(unknown)).toBe(false);
    expect(await blobs.delete(unknown)).toBe(false);
    for (const bad of ['../../etc/passwd', '', 'ABCDEF', `${unknown}/x`]) {
      expect(await blobs.get(bad)).toBeNull();
      expect(await blobs.has(bad)).toBe(false);
      expect(await blobs.delete(bad)).toBe(false);
    }
  });

  it('answers a ping', async () => {
    await expect(blobs.ping()).resolves.toBeUndefined();
  });

  it('serves concurrent writes and reads', async () => {
    const payloads = Array.from({ length: 20 }, (_, i) => randomBytes(100 + i));
    const ids = await Promise.all(payloads.map((bytes) => blobs.put(bytes)));
    expect(new Set(ids).size).toBe(ids.length);
    const read = await Promise.all(ids.map((id) => blobs.get(id)));
    read.forEach((bytes, i) => expect(bytes?.equals(payloads[i])).toBe(true));
  });
});

describe('embedded blob store on disk', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-embedded-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps blobs across a reopen and leaves no temporary file behind', async () => {
    const first = await openEmbeddedBlobStore(dir);
    const id = await first.put(Buffer.from('kept'));
    await first.close();
    const second = await openEmbeddedBlobStore(dir);
    expect((await second.get(id))?.toString()).toBe('kept');
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
    expect(existsSync(path.join(dir, id.slice(0, 2), id))).toBe(true);
  });

  it('removes stale temporary files of a crashed write at open, and never serves them', async () => {
    await openEmbeddedBlobStore(dir);
    const id = 'a'.repeat(32);
    const stale = path.join(dir, 'tmp', `${id}.0000.tmp`);
    const fresh = path.join(dir, 'tmp', `${'b'.repeat(32)}.0000.tmp`);
    await fs.writeFile(stale, 'half a fi');
    await fs.writeFile(fresh, 'being writ');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(stale, old, old);
    const store = await openEmbeddedBlobStore(dir);
    expect(await store.get(id)).toBeNull();
    // Only what is old enough to be a crash's leftover goes; a young file may be another writer's.
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([path.basename(fresh)]);
  });

  it('is what openBlobStoreAt opens without a MongoDB URL', async () => {
    const store = await openBlobStoreAt({ dir });
    expect(store.kind).toBe('embedded');
  });

  it('fails a ping when its folder is gone', async () => {
    const store = await openEmbeddedBlobStore(dir);
    await fs.rm(dir, { recursive: true, force: true });
    await expect(store.ping()).rejects.toThrow();
  });
});
