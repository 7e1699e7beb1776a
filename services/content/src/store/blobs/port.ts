import type { Readable } from 'node:stream';
/**
 * The blob store port: opaque bytes kept outside the document store, under
 * ids the store hands out. Three adapters: files under DATA_DIR (embedded),
 * GridFS (MongoDB) and a chunk table (PostgreSQL). A blob is written whole or
 * not at all, and never changes.
 */
/** Bytes `start` to `end` of a blob, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'embedded' | 'gridfs' | 'postgres';
  /** Stores the bytes under a new id. */
  put(bytes: Buffer): Promise<string>;
  /**
   * Stores the bytes of `source` under a new id as they arrive, never holding them all (resumable uploads): a source
   * that fails (or is refused part-way) leaves no blob behind.
   */
  write(source: AsyncIterable<Uint8Array>): Promise<string>;
  /** The bytes of a blob, or null when there is none with that id. */
  get(id: string): Promise<Buffer | null>;
  /**
   * The bytes of a blob as a stream, from `range.start` to `range.end` (inclusive) when given, or null when there is
   * none with that id: a download is served without holding the file in memory.
   */
  open(id: string, range?: ByteRange): Promise<Readable | null>;
  has(id: string): Promise<boolean>;
  /** Deletes a blob; false when there was none (deleting twice is not an error). */
  delete(id: string): Promise<boolean>;
  /** Throws unless the store can be written to and read from. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Blob ids are 32 lower-case hex digits; anything else names no blob (and never a path). */
export const BLOB_ID = /^[0-9a-f]{32}$/;

export function isBlobId(id: string): boolean {
  return BLOB_ID.test(id);
}
