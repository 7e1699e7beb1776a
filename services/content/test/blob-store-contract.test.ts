/**
 * One contract for every adapter of the blob store port. The embedded and the
 * PostgreSQL adapters are always tested (PostgreSQL in a database of its own,
 * dropped after); GridFS too when MONGO_URL is set (in a throwaway database).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { openEmbeddedBlobStore } from '../src/store/blobs/embedded';
import { openGridFsBlobStore } from '../src/store/blobs/gridfs';
import { openBlobStoreAt } from '../src/store/blobs/open';
import { pollUntil } from '../../../test/support/poll';
import { isBlobId, type BlobStore } from '../src/store/blobs/port';
import { BLOB_CHUNK_BYTES, openPostgresBlobStore, PostgresBlobStore } from '../src/store/blobs/postgres';
import { createTestDatabase, type TestDatabase } from '../../../test/support/postgres';

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

function postgresAdapter(): Adapter {
  let database: TestDatabase | undefined;
  return {
    name: 'postgres',
    async open() {
      database = await createTestDatabase('blob_contract');
      return openPostgresBlobStore(database.url, { schema: 'cms_content' });
    },
    cleanup: async () => {
      await database?.dispose();
    },
  };
}

const adapters: Adapter[] = [embeddedAdapter(), postgresAdapter()];
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

  it('stores a stream of pieces of any sizes as one blob (resumable uploads)', async () => {
    const bytes = randomBytes(300 * 1024 + 11);
    const pieces = async function* () {
      for (let at = 0; at < bytes.length; at += 70_001) yield bytes.subarray(at, at + 70_001);
    };
    const id = await blobs.write(pieces());
    expect(isBlobId(id)).toBe(true);
    expect((await blobs.get(id))?.equals(bytes)).toBe(true);
  });

  it('keeps no blob of a stream that fails part-way', async () => {
    let written: string | undefined;
    const source = async function* () {
      yield Buffer.alloc(40, 1);
      throw new Error('client went away');
    };
    await expect(
      blobs.write(source()).then((id) => {
        written = id;
      }),
    ).rejects.toThrow('client went away');
    expect(written).toBeUndefined();
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

  it('serves byte ranges within a chunk, across chunks, and to the end', async () => {
    // Spans three chunks of every adapter's size (256 KiB here, 255 KiB in GridFS).
    const bytes = randomBytes(3 * BLOB_CHUNK_BYTES - 5);
    const id = await blobs.put(bytes);
    const read = async (start: number, end: number) => {
      const stream = await blobs.open(id, { start, end });
      const parts: Buffer[] = [];
      for await (const part of stream!) parts.push(part as Buffer);
      return Buffer.concat(parts);
    };
    for (const [start, end] of [
      [0, 0],
      [10, 99],
      [BLOB_CHUNK_BYTES - 3, BLOB_CHUNK_BYTES + 2],
      [5, 2 * BLOB_CHUNK_BYTES + 17],
      [2 * BLOB_CHUNK_BYTES, bytes.length - 1],
      [bytes.length - 1, bytes.length - 1],
    ]) {
      expect((await read(start, end)).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    const whole = await blobs.open(id);
    const parts: Buffer[] = [];
    for await (const part of whole!) parts.push(part as Buffer);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    expect(await blobs.open('e'.repeat(32))).toBeNull();
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

  it('is what openBlobStoreAt opens without a store URL', async () => {
    const store = await openBlobStoreAt({ store: { engine: 'embedded' }, dir, namespace: 'cms_content' });
    expect(store.kind).toBe('embedded');
  });

  it('fails a ping when its folder is gone', async () => {
    const store = await openEmbeddedBlobStore(dir);
    await fs.rm(dir, { recursive: true, force: true });
    await expect(store.ping()).rejects.toThrow();
  });
});

describe('PostgreSQL blob store', () => {
  let database: TestDatabase;
  let url: string;
  let store: PostgresBlobStore;
  let probe: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('blob_pg');
    url = database.url;
    // Small chunks, so that a few bytes make many rows.
    store = await openPostgresBlobStore(url, { schema: 'cms_content', chunkBytes: 16 });
    probe = new pg.Client({ connectionString: url });
    await probe.connect();
  });
  afterAll(async () => {
    await probe.end();
    await store.close();
    await database.dispose();
  });

  const rowsOf = async (table: 'blobs_files' | 'blobs_chunks') =>
    Number((await probe.query(`SELECT count(*) FROM cms_content.${table}`)).rows[0].count);

  it('is what openBlobStoreAt opens for a postgres:// URL, in the schema it is given', async () => {
    const opened = await openBlobStoreAt({
      store: { engine: 'postgres', url },
      dir: '/nonexistent',
      namespace: 'cms_blob_other',
    });
    try {
      expect(opened.kind).toBe('postgres');
      const id = await opened.put(Buffer.from('elsewhere'));
      const { rows } = await probe.query('SELECT id FROM cms_blob_other.blobs_files');
      expect(rows).toEqual([{ id }]);
    } finally {
      await opened.close();
    }
  });

  it('stores a blob as rows of its chunk size and reads a range from the chunks that hold it', async () => {
    const bytes = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789'); // 36 bytes: chunks of 16, 16 and 4
    const id = await store.put(bytes);
    const { rows } = await probe.query(
      'SELECT n, length(data) AS size FROM cms_content.blobs_chunks WHERE file_id = $1 ORDER BY n',
      [id],
    );
    expect(rows).toEqual([
      { n: 0, size: 16 },
      { n: 1, size: 16 },
      { n: 2, size: 4 },
    ]);
    const stream = await store.open(id, { start: 14, end: 17 });
    const parts: Buffer[] = [];
    for await (const part of stream!) parts.push(part as Buffer);
    expect(parts.map(String)).toEqual(['op', 'qr']);
    // An end past the last byte stops there, as a file read does.
    const tail = await store.open(id, { start: 34, end: 100 });
    const tailParts: Buffer[] = [];
    for await (const part of tail!) tailParts.push(part as Buffer);
    expect(Buffer.concat(tailParts).toString()).toBe('89');
  });

  it('writes a stream one chunk at a time, whatever sizes its pieces have', async () => {
    const pieces = ['a', 'bcdefghijklmnopqrstu', '', 'vwxyz', '0123456789abcdefghijklmnopqrstuvwxyz'].map((p) =>
      Buffer.from(p),
    );
    const id = await store.write(pieces);
    expect((await store.get(id))?.toString()).toBe(Buffer.concat(pieces).toString());
    const { rows } = await probe.query(
      'SELECT length(data) AS size FROM cms_content.blobs_chunks WHERE file_id = $1 ORDER BY n',
      [id],
    );
    expect(rows.map((row) => row.size)).toEqual([16, 16, 16, 14]);
  });

  it('shows nothing of an upload in progress, and leaves nothing when its writer dies', async () => {
    const files = await rowsOf('blobs_files');
    const chunks = await rowsOf('blobs_chunks');
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let written = 0;
    const source = async function* () {
      for (let i = 0; i < 10; i += 1) {
        written += 1;
        yield Buffer.alloc(16, i);
      }
      await stalled; // the writer hangs mid-upload, its transaction open
    };
    const upload = store.write(source());
    await pollUntil(async () => written === 10 && (await writerBackend()) !== null, 10_000, {
      description: 'the upload to stall with its transaction open',
    });
    expect(await rowsOf('blobs_files')).toBe(files);
    expect(await rowsOf('blobs_chunks')).toBe(chunks);
    // The writer's connection dies (as with a crash of its process): the server rolls the upload back.
    await probe.query('SELECT pg_terminate_backend($1)', [await writerBackend()]);
    release();
    await expect(upload).rejects.toThrow();
    expect(await rowsOf('blobs_files')).toBe(files);
    expect(await rowsOf('blobs_chunks')).toBe(chunks);
  });

  it('leaves nothing when its source fails mid-upload', async () => {
    const chunks = await rowsOf('blobs_chunks');
    const source = async function* () {
      yield Buffer.alloc(40);
      throw new Error('client went away');
    };
    await expect(store.write(source())).rejects.toThrow('client went away');
    expect(await rowsOf('blobs_chunks')).toBe(chunks);
  });

  it('errs a read whose blob is deleted before its chunks are read', async () => {
    const id = await store.put(Buffer.alloc(200, 1));
    const stream = await store.open(id);
    await store.delete(id);
    await expect(
      (async () => {
        for await (const part of stream!) void part;
      })(),
    ).rejects.toThrow(/lost chunks/);
  });

  /** The server process of the session holding an open transaction that wrote to the chunk table. */
  async function writerBackend(): Promise<number | null> {
    const { rows } = await probe.query(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'`,
    );
    return rows.length === 1 ? rows[0].pid : null;
  }
});
