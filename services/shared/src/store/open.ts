import type { Logger } from '../logging/logger';
import { openEmbeddedStore } from './embedded';
import { openMongoStore } from './mongo';
import type { DocumentStore } from './port';
import { timedStore } from './timed';

export interface OpenStoreOptions {
  /** When set, the store is MongoDB at this URL; otherwise the embedded engine under `dataDir`. */
  mongoUrl?: string;
  dataDir: string;
  /** MongoDB database; defaults to the one named in the URL. */
  dbName?: string;
  /** The `store` label of its operation latencies (the service that owns it). */
  metricsName?: string;
  /** Hears of an embedded folder's stale lock taken over. */
  logger?: Logger;
}

export async function openStore(options: OpenStoreOptions): Promise<DocumentStore> {
  const store = options.mongoUrl
    ? await openMongoStore(options.mongoUrl, options.dbName)
    : await openEmbeddedStore(options.dataDir, options.logger);
  return timedStore(store, options.metricsName ?? 'default');
}
