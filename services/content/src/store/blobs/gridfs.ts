/**
 * The MongoDB adapter of the blob store port: a GridFS bucket. The files
 * document is written after the last chunk, so an upload cut short is never
 * visible as a blob.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, MongoClient, MongoRuntimeError, type Db, type ObjectId } from 'mongodb';
import { isBlobId, type BlobStore, type ByteRange } from './port';

/** Blob ids are strings; GridFS takes any `_id` although the driver's types say ObjectId. */
const asFileId = (id: string) => id as unknown as ObjectId;

class GridFsBlobStore implements BlobStore {
  readonly kind = 'gridfs' as const;
  private readonly bucket: GridFSBucket;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    bucketName: string,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName });
  }

  async put(bytes: Buffer): Promise<string> {
    const id = randomUUID().replace(/-/g, '');
    await pipeline(Readable.from([bytes]), this.bucket.openUploadStreamWithId(asFileId(id), id));
    return id;
  }

  async write(source: AsyncIterable<Uint8Array>): Promise<string> {
    const id = randomUUID().replace(/-/g, '');
    const upload = this.bucket.openUploadStreamWithId(asFileId(id), id);
    try {
      await pipeline(Readable.from(source), upload);
    } catch (err) {
      // The files document comes after the last chunk: the chunks written so far are all there is to remove.
      await upload.abort().catch(() => undefined);
      throw err;
    }
    return id;
  }

  async get(id: string): Promise<Buffer | null> {
    if (!isBlobId(id)) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of this.bucket.openDownloadStream(asFileId(id))) chunks.push(chunk as Buffer);
    } catch (err) {
      // The driver's "FileNotFound" error carries this code.
      if ((err as { code?: unknown }).code === 'ENOENT') return null;
      throw err;
    }
    return Buffer.concat(chunks);
  }

  async open(id: string, range?: ByteRange): Promise<Readable | null> {
    if (!(await this.has(id))) return null;
    // GridFS ends are exclusive.
    return this.bucket.openDownloadStream(asFileId(id), range ? { start: range.start, end: range.end + 1 } : {});
  }

  async has(id: string): Promise<boolean> {
    if (!isBlobId(id)) return false;
    return (await this.bucket.find({ _id: asFileId(id) }, { limit: 1 }).toArray()).length > 0;
  }

  async delete(id: string): Promise<boolean> {
    if (!isBlobId(id)) return false;
    try {
      // Deletes the files document, then the chunks (also when the document is already gone).
      await this.bucket.delete(asFileId(id));
      return true;
    } catch (err) {
      if (err instanceof MongoRuntimeError && /File not found/i.test(err.message)) return false;
      throw err;
    }
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Connects to MongoDB; blobs go to the bucket `bucketName` of `dbName` (default: the database in the URL). */
export async function openGridFsBlobStore(url: string, dbName?: string, bucketName = 'blobs'): Promise<BlobStore> {
  const client = new MongoClient(url);
  await client.connect();
  return new GridFsBlobStore(client, client.db(dbName), bucketName);
}
