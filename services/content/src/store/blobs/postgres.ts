/**
 * The PostgreSQL adapter of the blob store port: a blob is a row of `blobs_files` (its length and chunk size) and
 * its bytes are rows of `blobs_chunks` (`bytea`, 256 KiB each), in the content service's schema.
 *
 * A chunk table rather than large objects: rows are dropped with the schema and copied by `pg_dump` of it, deletes
 * are one statement (a large object outlives its reference unless unlinked), and a range read is a plain indexed
 * select of the chunks it spans.
 *
 * A blob is written in one transaction: its file row and chunks are invisible to every other session until the
 * commit publishes them together, and a writer that dies mid-upload (process, connection or server) leaves nothing,
 * since PostgreSQL rolls the transaction back. Bytes move one chunk at a time both ways; `open` reads only the chunks
 * its range spans.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import { isBlobId, type BlobStore, type ByteRange } from './port';

/** Below PostgreSQL's 1 GB field limit by far, and large enough that a file is few rows (GridFS uses 255 KiB). */
export const BLOB_CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per query when streaming: 1 MiB in memory at most per reader. */
const CHUNKS_PER_READ = 4;

export interface PostgresBlobStoreOptions {
  /** Schema of the tables (created when missing). */
  schema: string;
  /** Bytes per chunk for new blobs; blobs already stored keep their own. */
  chunkBytes?: number;
  /** Connections kept by this store's own pool. */
  maxConnections?: number;
}

/** Splits a stream of buffers of any sizes into pieces of exactly `size` bytes (the last one shorter). */
async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      yield pending.length ? Buffer.concat([...pending, rest.subarray(0, take)]) : rest.subarray(0, take);
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes) yield Buffer.concat(pending);
}

export class PostgresBlobStore implements BlobStore {
  readonly kind = 'postgres' as const;
  private readonly files: string;
  private readonly chunks: string;

  constructor(
    readonly pool: pg.Pool,
    readonly schema: string,
    private readonly chunkBytes = BLOB_CHUNK_BYTES,
  ) {
    this.files = `${pg.escapeIdentifier(schema)}.blobs_files`;
    this.chunks = `${pg.escapeIdentifier(schema)}.blobs_chunks`;
  }

  /** Creates the schema and tables when missing; several processes may do so at once. */
  async ensureTables(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // `IF NOT EXISTS` alone still races on the catalog's unique index: one creator at a time.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cms blob tables ${this.schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(this.schema)}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.files} (
           id text PRIMARY KEY, length bigint NOT NULL, chunk_bytes integer NOT NULL,
           created timestamptz NOT NULL DEFAULT now())`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.chunks} (
           file_id text NOT NULL, n integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (file_id, n))`,
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  put(bytes: Buffer): Promise<string> {
    return this.write([bytes]);
  }

  /**
   * Stores the bytes of `source` under a new id, holding one chunk at a time. Nothing is visible before the last
   * chunk is written; a source that fails leaves nothing behind.
   */
  async write(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<string> {
    const id = randomUUID().replace(/-/g, '');
    const client = await this.pool.connect();
    let broken: unknown;
    // A checked-out client has no error listener of the pool's: a connection lost between two statements (while the
    // source is read) would otherwise be an uncaught error. The next statement fails with it instead.
    const onLost = (err: Error) => (broken = err);
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      let n = 0;
      let length = 0;
      const pieces = (async function* () {
        yield* source;
      })();
      for await (const chunk of rechunk(pieces, this.chunkBytes)) {
        await client.query(`INSERT INTO ${this.chunks} (file_id, n, data) VALUES ($1, $2, $3)`, [id, n, chunk]);
        n += 1;
        length += chunk.length;
      }
      await client.query(`INSERT INTO ${this.files} (id, length, chunk_bytes) VALUES ($1, $2, $3)`, [
        id,
        length,
        this.chunkBytes,
      ]);
      await client.query('COMMIT');
      return id;
    } catch (err) {
      broken = err;
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', onLost);
      // A connection that failed mid-transaction is not given back to other callers.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  private async fileOf(id: string): Promise<{ length: number; chunkBytes: number } | null> {
    if (!isBlobId(id)) return null;
    const { rows } = await this.pool.query<{ length: string; chunk_bytes: number }>(
      `SELECT length, chunk_bytes FROM ${this.files} WHERE id = $1`,
      [id],
    );
    return rows.length ? { length: Number(rows[0].length), chunkBytes: rows[0].chunk_bytes } : null;
  }

  async get(id: string): Promise<Buffer | null> {
    const stream = await this.open(id);
    if (!stream) return null;
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  async open(id: string, range?: ByteRange): Promise<Readable | null> {
    // Looked up before the stream is handed out, so a missing blob is null rather than a stream error.
    const file = await this.fileOf(id);
    if (!file) return null;
    const start = range?.start ?? 0;
    // As a file stream does, an end past the blob stops at its last byte.
    const end = Math.min(range?.end ?? file.length - 1, file.length - 1);
    if (end < start) return Readable.from([]);
    return Readable.from(this.readChunks(id, file.chunkBytes, start, end));
  }

  /** Bytes `start` to `end` (inclusive), fetching only the chunks that hold them, a few at a time. */
  private async *readChunks(id: string, chunkBytes: number, start: number, end: number): AsyncGenerator<Buffer> {
    const first = Math.floor(start / chunkBytes);
    const last = Math.floor(end / chunkBytes);
    for (let from = first; from <= last; from += CHUNKS_PER_READ) {
      const to = Math.min(from + CHUNKS_PER_READ - 1, last);
      const { rows } = await this.pool.query<{ n: number; data: Buffer }>(
        `SELECT n, data FROM ${this.chunks} WHERE file_id = $1 AND n BETWEEN $2 AND $3 ORDER BY n`,
        [id, from, to],
      );
      if (rows.length !== to - from + 1) throw new Error(`blob ${id} lost chunks while it was read (deleted?)`);
      for (const { n, data } of rows) {
        const offset = n * chunkBytes;
        yield data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset + 1));
      }
    }
  }

  async has(id: string): Promise<boolean> {
    return (await this.fileOf(id)) !== null;
  }

  async delete(id: string): Promise<boolean> {
    if (!isBlobId(id)) return false;
    // One statement: the file row and its chunks go together.
    const { rows } = await this.pool.query<{ gone: number }>(
      `WITH gone AS (DELETE FROM ${this.files} WHERE id = $1 RETURNING id),
            chunks AS (DELETE FROM ${this.chunks} WHERE file_id = $1)
       SELECT count(*)::int AS gone FROM gone`,
      [id],
    );
    return rows[0].gone > 0;
  }

  async ping(): Promise<void> {
    const { rows } = await this.pool.query<{ writable: boolean }>(
      `SELECT has_table_privilege($1, 'INSERT') AND has_table_privilege($2, 'INSERT') AS writable`,
      [this.files, this.chunks],
    );
    if (!rows[0].writable) throw new Error(`blob tables in schema ${this.schema} are not writable`);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Connects to the database `url` names; blobs go to `<schema>.blobs_files` and `<schema>.blobs_chunks`. */
export async function openPostgresBlobStore(
  url: string,
  options: PostgresBlobStoreOptions,
): Promise<PostgresBlobStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 4 });
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const store = new PostgresBlobStore(pool, options.schema, options.chunkBytes);
  try {
    await store.ensureTables();
  } catch (err) {
    await pool.end();
    throw err;
  }
  return store;
}
