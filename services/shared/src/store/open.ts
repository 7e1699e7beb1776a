import { openEmbeddedStore } from './embedded';
import { openMongoStore } from './mongo';
import type { DocumentStore } from './port';

export interface OpenStoreOptions {
  /** When set, the store is MongoDB at this URL; otherwise the embedded engine under `dataDir`. */
  mongoUrl?: string;
  dataDir: string;
  /** MongoDB database; defaults to the one named in the URL. */
  dbName?: string;
}

export function openStore(options: OpenStoreOptions): Promise<DocumentStore> {
  return options.mongoUrl ? openMongoStore(options.mongoUrl, options.dbName) : openEmbeddedStore(options.dataDir);
}
