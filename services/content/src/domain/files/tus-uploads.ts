/**
 * Resumable uploads (the TUS 1.0.0 protocol of `@tus-upload` / `@tus-replace`, as the original platform offers it):
 * an upload is announced with its length, its bytes arrive in any number of `PATCH`es, each appended at the offset
 * the server last confirmed, and the last one creates the File or Image (or replaces the file of an object).
 *
 * The bytes never sit in memory whole: each `PATCH` body streams into a blob of its own (a chunk) as it arrives, and
 * the upload's record (in the content store) lists its chunks and offset. The blob store's write is the durability
 * point: an offset is confirmed only once its chunk is stored, so a `HEAD` after a cut connection tells the client
 * where to resume. A chunk that is cut short keeps the bytes that arrived. When the last byte is in, the chunks are
 * streamed into one blob (a single chunk is used as it is) and handed to the content's one write path.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, badRequest, conflict, notFound, type Collection, type Document } from '@cms/shared';
import type { FileKind, FileValue } from './files';
import { describeStored } from './uploads';

/** The protocol version spoken (and the only one accepted in `Tus-Resumable`). */
export const TUS_VERSION = '1.0.0';
/** The extensions offered: `creation` (POST announces an upload) and `expiration` (`Upload-Expires`). */
export const TUS_EXTENSIONS = 'creation,expiration';
/** How long an upload waits for its next bytes before it is dropped (the original's hour). */
export const TUS_EXPIRY_MS = 60 * 60 * 1000;
/** The bytes of an assembled image read to tell its format and size (headers come first; JPEG's may follow EXIF). */
const IMAGE_HEAD_BYTES = 512 * 1024;
/**
 * The most parts (chunks) one upload may have: its record lists them, so a client sending a byte at a time must not
 * grow it without bound. TUS clients send few large parts (tus-js-client: one, unless told otherwise).
 */
export const TUS_MAX_PARTS = 1000;
/** Expired uploads dropped per new upload: enough to keep up, bounded so that an announcement stays quick. */
const SWEEP_BATCH = 20;

/** `create`: a new File/Image in the folder; `replace`: the file of the object itself (`@tus-replace`). */
export type TusMode = 'create' | 'replace';

/** What the client said about the file in `Upload-Metadata`. */
export interface TusMetadata {
  filename?: string;
  contentType?: string;
  /** The type to create (`@type`); else Image for `image/*`, File for the rest. */
  type?: string;
  /** The field to fill; else the type's primary file field. */
  field?: string;
}

export interface TusUploadRecord extends Document {
  _id: string;
  mode: TusMode;
  /** The folder (create) or object (replace) the upload was announced on; it is only answered there. */
  context_uid: string;
  /** Who announced it: nobody else may see or continue it. */
  owner: string;
  length: number;
  offset: number;
  /** Blob ids of the bytes received, in order. */
  chunks: string[];
  metadata: TusMetadata;
  /** ISO time after which the upload is dropped; each confirmed chunk moves it on. */
  expires: string;
  /** Set while the finished upload is being turned into content: only one request does that. */
  completing?: string;
}

/** The part of the blob store uploads use. */
export interface ChunkBlobs {
  write(source: AsyncIterable<Uint8Array>): Promise<string>;
  open(id: string, range?: { start: number; end: number }): Promise<Readable | null>;
  delete(id: string): Promise<boolean>;
}

export class TusUploads {
  constructor(
    private readonly uploads: Collection<TusUploadRecord>,
    private readonly blobs: ChunkBlobs,
    /** MAX_UPLOAD_BYTES: the largest upload announced. */
    readonly maxBytes: number,
    private readonly now: () => Date = () => new Date(),
    /** TUS_MAX_PARTS (a test's smaller). */
    private readonly maxParts = TUS_MAX_PARTS,
  ) {}

  async ensureIndexes(): Promise<void> {
    await this.uploads.createIndex({ expires: 1 });
  }

  /** Announces an upload of `length` bytes; 413 above MAX_UPLOAD_BYTES. Drops a few expired ones on the way. */
  async start(
    contextUid: string,
    owner: string,
    mode: TusMode,
    length: number,
    metadata: TusMetadata,
  ): Promise<TusUploadRecord> {
    if (length > this.maxBytes) {
      throw new AppError('PayloadTooLarge', `An upload may have at most ${this.maxBytes} bytes`);
    }
    await this.sweep();
    const record: TusUploadRecord = {
      _id: randomUUID().replace(/-/g, ''),
      mode,
      context_uid: contextUid,
      owner,
      length,
      offset: 0,
      chunks: [],
      metadata,
      expires: this.expiry(),
    };
    await this.uploads.insertOne(record);
    return record;
  }

  /**
   * The upload `id` as its owner sees it on the object it was announced on; 404 for any other id, caller or
   * object, and for an expired upload (dropped then).
   */
  async find(id: string, contextUid: string, owner: string): Promise<TusUploadRecord> {
    const missing = () => notFound('No such upload (it may have expired)');
    if (!/^[0-9a-f]{32}$/.test(id)) throw missing();
    const record = await this.uploads.findOne({ _id: id });
    if (!record || record.context_uid !== contextUid || record.owner !== owner) throw missing();
    if (record.expires <= this.now().toISOString()) {
      await this.discard(record);
      throw missing();
    }
    return record;
  }

  /**
   * Appends the bytes of `source` at `offset`: 409 unless that is the offset confirmed so far, 413 when they run
   * past the announced length (checked on `declared`, the body's Content-Length, before a byte is read, and as
   * they arrive); nothing is kept then. A source that ends early (a cut connection) keeps what arrived. Returns
   * the record with its new offset; 409 when another request appended meanwhile (its chunk is dropped).
   */
  async append(
    record: TusUploadRecord,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    declared: number | undefined,
  ): Promise<TusUploadRecord> {
    if (offset !== record.offset) {
      throw conflict(`Upload-Offset ${offset} does not match the upload's offset ${record.offset}`);
    }
    const room = record.length - record.offset;
    const tooLong = () =>
      new AppError('PayloadTooLarge', `The upload has ${room} bytes left of its announced ${record.length}`);
    if (declared !== undefined && declared > room) throw tooLong();
    // The last part allowed must bring every byte left (a declared length saying so).
    if (record.chunks.length >= this.maxParts - 1 && room > 0 && declared !== room) {
      throw badRequest(`An upload takes at most ${this.maxParts} parts: send the ${room} bytes left in one`);
    }
    let received = 0;
    async function* bounded(): AsyncGenerator<Uint8Array> {
      try {
        for await (const piece of source) {
          received += piece.byteLength;
          if (received > room) throw tooLong();
          yield piece;
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        // The connection was cut: what arrived is kept, and the client resumes after it (HEAD tells where).
      }
    }
    const chunk = await this.blobs.write(bounded());
    if (received === 0) {
      await this.blobs.delete(chunk);
      return record;
    }
    const moved = await this.uploads.updateOne(
      { _id: record._id, offset: record.offset },
      { $set: { offset: record.offset + received, expires: this.expiry() }, $push: { chunks: chunk } },
    );
    if (moved.matchedCount === 0) {
      await this.blobs.delete(chunk);
      throw conflict('Another request appended to this upload meanwhile; ask for its offset (HEAD)');
    }
    return { ...record, offset: record.offset + received, chunks: [...record.chunks, chunk] };
  }

  /** Claims a finished upload for the one request that turns it into content; 409 when another has claimed it. */
  async claim(record: TusUploadRecord): Promise<void> {
    const claimed = await this.uploads.updateOne(
      { _id: record._id, completing: { $exists: false } },
      { $set: { completing: this.now().toISOString() } },
    );
    if (claimed.matchedCount === 0) throw conflict('This upload is already being completed');
  }

  /**
   * The bytes of a finished (claimed) upload as one blob, described as a field of `kind` (400 when an image field
   * gets no image; the blob made is deleted then).
   */
  async assemble(record: TusUploadRecord, kind: FileKind, field: string): Promise<FileValue> {
    const blob_id = record.chunks.length === 1 ? record.chunks[0] : await this.blobs.write(this.concat(record.chunks));
    try {
      const described = describeStored(
        kind,
        field,
        record.metadata.filename,
        record.metadata.contentType,
        kind === 'image' ? await this.head(blob_id, record.length) : Buffer.alloc(0),
      );
      return { blob_id, ...described, size: record.length };
    } catch (error) {
      if (record.chunks.length !== 1) await this.blobs.delete(blob_id);
      throw error;
    }
  }

  /** The upload became content, which now owns the blob `kept`: the record and the other chunks go. */
  finish(record: TusUploadRecord, kept: string): Promise<void> {
    return this.discard(record, kept);
  }

  /** The upload could not become content: it goes with every blob made of it (`assembled` included). */
  async fail(record: TusUploadRecord, assembled: string | undefined): Promise<void> {
    await this.discard(record);
    if (assembled) await this.blobs.delete(assembled).catch(() => false);
  }

  /** Drops the upload and its chunks but `keep` (expired, finished or failed). A blob not deleted now is left. */
  private async discard(record: TusUploadRecord, keep?: string): Promise<void> {
    await this.uploads.deleteOne({ _id: record._id });
    await Promise.allSettled(record.chunks.filter((id) => id !== keep).map((id) => this.blobs.delete(id)));
  }

  /** `Upload-Expires` of a record (an HTTP date). */
  static expiresHeader(record: TusUploadRecord): string {
    return new Date(record.expires).toUTCString();
  }

  private expiry(): string {
    return new Date(this.now().getTime() + TUS_EXPIRY_MS).toISOString();
  }

  private async sweep(): Promise<void> {
    const expired = await this.uploads.find({ expires: { $lt: this.now().toISOString() } }, { limit: SWEEP_BATCH });
    for (const record of expired) await this.discard(record);
  }

  private async *concat(chunks: string[]): AsyncGenerator<Uint8Array> {
    for (const id of chunks) {
      const stream = await this.blobs.open(id);
      if (!stream) throw new AppError('InternalServerError', 'A part of the upload is missing');
      for await (const piece of stream) yield piece as Uint8Array;
    }
  }

  private async head(blob: string, length: number): Promise<Buffer> {
    if (length === 0) return Buffer.alloc(0);
    const stream = await this.blobs.open(blob, { start: 0, end: Math.min(length, IMAGE_HEAD_BYTES) - 1 });
    if (!stream) throw new AppError('InternalServerError', 'The assembled upload is missing');
    const pieces: Buffer[] = [];
    for await (const piece of stream) pieces.push(piece as Buffer);
    return Buffer.concat(pieces);
  }
}

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs (a key alone means an empty value). Only the keys used
 * are kept; 400 for a malformed header. Values are bounded (they end up in a file name or a type name).
 */
export function parseTusMetadata(header: string | undefined): TusMetadata {
  const pairs = new Map<string, string>();
  for (const item of (header ?? '').split(',')) {
    const parts = item.trim().split(/\s+/);
    if (parts.length === 1 && parts[0] === '') continue;
    if (parts.length > 2 || !/^[\x21-\x7e]{1,100}$/.test(parts[0]))
      throw badRequest('Malformed Upload-Metadata header');
    const encoded = parts[1] ?? '';
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length > 4096) {
      throw badRequest('Malformed Upload-Metadata header: values are base64');
    }
    pairs.set(parts[0].toLowerCase(), Buffer.from(encoded, 'base64').toString('utf8'));
  }
  const text = (key: string, max: number) => {
    const value = pairs.get(key);
    return value ? value.slice(0, max) : undefined;
  };
  return {
    filename: text('filename', 1000),
    // tus-js-client sends `filetype`; the original's examples `content-type`.
    contentType: text('content-type', 255) ?? text('filetype', 255),
    type: text('@type', 200),
    field: text('fieldname', 200),
  };
}
