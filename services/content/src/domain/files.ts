/**
 * File and image fields. The bytes live in a blob store outside the content
 * document (GridFS on MongoDB, files under DATA_DIR when embedded); the
 * document keeps a `FileValue` that names the blob.
 */

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

/** Stores uploads and the blobs behind file fields; implemented over the blob store port. */
export interface FileStorage {
  /** Decodes and stores one upload (`{data, encoding, filename, content-type}`); 400 when it is not one, 413 over the limit. */
  ingest(kind: FileKind, field: string, upload: unknown): Promise<FileValue>;
  /** A second blob with the same bytes (an object copy owns its own blobs). */
  duplicate(value: FileValue): Promise<FileValue>;
  /** Deletes blobs nothing refers to any more, after the write that dropped them has committed. */
  release(values: FileValue[]): Promise<void>;
}

/** The serialized form of a file or image field (`download` points at `@@download` / `@@images`). */
export function fileJson(kind: FileKind, value: FileValue, objectUrl: string, field: string) {
  const view = kind === 'image' ? '@@images' : '@@download';
  const base = {
    'content-type': value.content_type,
    download: `${objectUrl}/${view}/${field}`,
    filename: value.filename,
    size: value.size,
  };
  // Scales are not produced yet: clients fall back to `download` when `scales` is empty.
  return kind === 'image' ? { ...base, height: value.height ?? 0, scales: {}, width: value.width ?? 0 } : base;
}
