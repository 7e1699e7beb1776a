import { join } from 'node:path';
import { openEmbeddedBlobStore } from './embedded';
import { openGridFsBlobStore } from './gridfs';
import type { BlobStore } from './port';
import { openPostgresBlobStore } from './postgres';

export interface OpenBlobStoreOptions {
  /** The store's URL: `postgres://` puts blobs in a chunk table, `mongodb://` in GridFS; unset, files under `dir`. */
  url?: string;
  dir: string;
  /** MongoDB database, or PostgreSQL schema, of the blobs. */
  namespace: string;
}

export function openBlobStoreAt(options: OpenBlobStoreOptions): Promise<BlobStore> {
  if (!options.url) return openEmbeddedBlobStore(options.dir);
  const scheme = new URL(options.url).protocol;
  if (scheme === 'postgres:' || scheme === 'postgresql:') {
    return openPostgresBlobStore(options.url, { schema: options.namespace });
  }
  return openGridFsBlobStore(options.url, options.namespace);
}

/**
 * The content service's blobs, beside its documents (`cms_content`): a chunk table in that schema on PostgreSQL,
 * GridFS in that database on MongoDB, else files under `<DATA_DIR>/content/blobs`.
 */
export function openBlobStore(config: {
  STORE_URL?: string;
  MONGO_URL?: string;
  DATA_DIR: string;
}): Promise<BlobStore> {
  return openBlobStoreAt({
    url: config.STORE_URL ?? config.MONGO_URL,
    dir: join(config.DATA_DIR, 'content', 'blobs'),
    namespace: 'cms_content',
  });
}
