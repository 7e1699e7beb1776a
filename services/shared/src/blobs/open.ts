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
