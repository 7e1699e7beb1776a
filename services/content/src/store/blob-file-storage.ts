/**
 * File fields over the blob store port: every FileValue owns one blob (a copy
 * of an object gets blobs of its own), so releasing a value deletes its blob.
 */
import { AppError, type Logger } from '@cms/shared';
import type { BlobStore } from './blobs/port';
import type { FileBytes, FileKind, FileStorage, FileValue } from '../domain/files';
import { decodeUpload } from '../domain/uploads';

export class BlobFileStorage implements FileStorage, FileBytes {
  constructor(
    private readonly blobs: BlobStore,
    private readonly maxUploadBytes: number,
    private readonly logger: Logger,
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
    const ids = [...new Set(values.map((value) => value.blob_id))];
    const results = await Promise.allSettled(ids.map((id) => this.blobs.delete(id)));
    results.forEach((result, i) => {
      if (result.status === 'rejected') this.logger.warn({ err: result.reason, blob: ids[i] }, 'blob not released');
    });
  }

  read(value: FileValue): Promise<Buffer | null> {
    return this.blobs.get(value.blob_id);
  }
}
