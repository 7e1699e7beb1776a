import { join } from 'node:path';
import { storeEngineOf, type StoreEngine } from '@cms/shared';
import { openEmbeddedBlobStore } from './embedded';
import { openGridFsBlobStore } from './gridfs';
import type { BlobStore } from './port';
import { openPostgresBlobStore } from './postgres';

export interface OpenBlobStoreOptions {
  /** The documents' engine: blobs go beside them (a chunk table, GridFS), or to files under `dir` when embedded. */
  store: StoreEngine;
  dir: string;
  /** PostgreSQL schema, or MongoDB database, of the blobs. */
  namespace: string;
}

export function openBlobStoreAt(options: OpenBlobStoreOptions): Promise<BlobStore> {
  const { store } = options;
  switch (store.engine) {
    case 'postgres':
      return openPostgresBlobStore(store.url, { schema: options.namespace });
    case 'mongodb':
      return openGridFsBlobStore(store.url, options.namespace);
    default:
      return openEmbeddedBlobStore(options.dir);
  }
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
    store: storeEngineOf(config),
    dir: join(config.DATA_DIR, 'content', 'blobs'),
    namespace: 'cms_content',
  });
}
