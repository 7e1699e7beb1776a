/**
 * File fields over the blob store port: every FileValue owns one blob (a copy
 * of an object gets blobs of its own), so releasing a value deletes its blob.
 */
import { AppError, type Logger } from '@cms/shared';
import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from './blobs/port';
import type { FileBytes, FileKind, FileStorage, FileValue } from '../domain/files';
import type { ImageScaler, ScaleStore } from '../domain/files';
import { decodeUpload } from '../domain/files';

export class BlobFileStorage implements FileStorage, FileBytes {
  constructor(
    private readonly blobs: BlobStore,
    private readonly maxUploadBytes: number,
    private readonly logger: Logger,
    /** Where image scales are kept and how they are made; without it, no scales. */
    private readonly scales?: { store: ScaleStore; scaler: ImageScaler },
  ) {}

  async ingest(kind: FileKind, field: string, upload: unknown): Promise<FileValue> {
    const { bytes, ...described } = decodeUpload(kind, field, upload, this.maxUploadBytes);
    const blob_id = await this.blobs.put(bytes);
    return { blob_id, ...described, size: bytes.length };
  }

  async duplicate(value: FileValue): Promise<FileValue> {
    const bytes = await this.blobs.get(value.blob_id);
    if (!bytes) throw new AppError('InternalServerError', `The bytes of "${value.filename}" are missing`);
    return { ...value, blob_id: await this.blobs.put(bytes) };
  }

  /** Never fails the write that already committed: a blob that cannot be deleted now is logged and left. */
  async release(values: FileValue[]): Promise<void> {
    const originals = [...new Set(values.map((value) => value.blob_id))];
    // The scales made of an original go with it.
    const scales = await (this.scales?.store.forget(originals) ?? Promise.resolve([])).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'image scales not released');
      return [];
    });
    const ids = [...originals, ...scales];
    const results = await Promise.allSettled(ids.map((id) => this.blobs.delete(id)));
    results.forEach((result, i) => {
      if (result.status === 'rejected') this.logger.warn({ err: result.reason, blob: ids[i] }, 'blob not released');
    });
  }

  read(value: FileValue): Promise<Buffer | null> {
    return this.blobs.get(value.blob_id);
  }

  open(value: FileValue, range?: ByteRange): Promise<Readable | null> {
    return this.blobs.open(value.blob_id, range);
  }

  /**
   * The bytes of a scale of an image, made on first request and kept; null when the original is missing. Two
   * first requests at once may both make it: the first recorded wins and the other's blob is deleted.
   */
  async readScale(value: FileValue, width: number, height: number): Promise<Buffer | null> {
    if (!this.scales) return null;
    const made = await this.scales.store.find(value.blob_id, width, height);
    if (made) {
      const bytes = await this.blobs.get(made);
      if (bytes) return bytes;
    }
    const original = await this.blobs.get(value.blob_id);
    if (!original) return null;
    let bytes: Buffer;
    try {
      bytes = await this.scales.scaler.scale(original, value, width, height);
    } catch (error) {
      this.logger.warn({ err: error, blob: value.blob_id }, 'image could not be scaled');
      throw new AppError('BadRequest', `The image "${value.filename.slice(0, 100)}" cannot be scaled`);
    }
    const blob = await this.blobs.put(bytes);
    const kept = await this.scales.store.record(value.blob_id, width, height, blob);
    if (kept !== blob) await this.blobs.delete(blob).catch(() => false);
    return bytes;
  }
}
