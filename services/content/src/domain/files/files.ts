/**
 * File and image fields. The bytes live in a blob store outside the content
 * document (GridFS on MongoDB, files under DATA_DIR when embedded); the
 * document keeps a `FileValue` that names the blob.
 */
import type { Readable } from 'node:stream';

/** What a file or image field holds in `ContentDoc.fields`. */
export interface FileValue {
  blob_id: string;
  filename: string;
  content_type: string;
  size: number;
  /** Images only. */
  width?: number;
  height?: number;
}

export type FileKind = 'file' | 'image';

/** The field `@@download` / `@@images` serve when the URL names none (the type's primary field). */
export const PRIMARY_FILE_FIELD: Readonly<Record<string, string>> = { File: 'file', Image: 'image' };

/** A stored file field's value, told apart from whatever else `fields` holds by its blob id. */
export function asFileValue(value: unknown): FileValue | null {
  if (typeof value !== 'object' || value === null) return null;
  const candidate = value as Partial<FileValue>;
  return typeof candidate.blob_id === 'string' && typeof candidate.filename === 'string' ? (value as FileValue) : null;
}

/**
 * A file already in the blob store (a finished resumable upload) given as a field's value: the write takes its blob
 * as it is instead of decoding an upload. A class, so that no JSON body can pass one.
 */
export class StoredFile {
  constructor(readonly value: FileValue) {}
}

/** Stores uploads and the blobs behind file fields; implemented over the blob store port. */
export interface FileStorage {
  /** Decodes and stores one upload (`{data, encoding, filename, content-type}`); 400 when it is not one, 413 over the limit. */
  ingest(kind: FileKind, field: string, upload: unknown): Promise<FileValue>;
  /** A second blob with the same bytes (an object copy owns its own blobs). */
  duplicate(value: FileValue): Promise<FileValue>;
  /** Deletes blobs nothing refers to any more, after the write that dropped them has committed. */
  release(values: FileValue[]): Promise<void>;
}

/** The serialized form of a file field (`download` points at `@@download`); an image's is `imageJson` (image-scales.ts). */
export function fileJson(value: FileValue, objectUrl: string, field: string) {
  return {
    'content-type': value.content_type,
    download: `${objectUrl}/@@download/${field}`,
    filename: value.filename,
    size: value.size,
  };
}

/** Reads the bytes behind a file field (the download views). */
export interface FileBytes {
  /** The bytes, or null when the blob is missing. */
  read(value: FileValue): Promise<Buffer | null>;
  /** The bytes of an image's scale of that size (made on first request); null when the original is missing. */
  readScale(value: FileValue, width: number, height: number): Promise<Buffer | null>;
  /** The bytes as a stream, bytes `range.start` to `range.end` (inclusive) when given; null when the blob is missing. */
  open(value: FileValue, range?: { start: number; end: number }): Promise<Readable | null>;
}
