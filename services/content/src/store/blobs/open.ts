import { join } from 'node:path';
import { openEmbeddedBlobStore } from './embedded';
import { openGridFsBlobStore } from './gridfs';
import type { BlobStore } from './port';

export interface OpenBlobStoreOptions {
  /** When set, blobs go to GridFS at this URL; otherwise to files under `dir`. */
  mongoUrl?: string;
  dir: string;
  /** MongoDB database; defaults to the one named in the URL. */
  dbName?: string;
}

export function openBlobStoreAt(options: OpenBlobStoreOptions): Promise<BlobStore> {
  return options.mongoUrl ? openGridFsBlobStore(options.mongoUrl, options.dbName) : openEmbeddedBlobStore(options.dir);
}

/** The content service's blobs: GridFS in its database (`cms_content`) on MongoDB, else files under `<DATA_DIR>/content/blobs`. */
export function openBlobStore(config: { MONGO_URL?: string; DATA_DIR: string }): Promise<BlobStore> {
  return openBlobStoreAt({
    mongoUrl: config.MONGO_URL,
    dir: join(config.DATA_DIR, 'content', 'blobs'),
    dbName: 'cms_content',
  });
}
