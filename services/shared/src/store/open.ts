import type { StoreEngine } from '../config/load';
import { openEmbeddedStore } from './embedded';
import { openMongoStore } from './mongo';
import type { DocumentStore } from './port';
import { openPostgresStore } from './postgres';
import { timedStore } from './timed';

export interface OpenStoreOptions {
  /** The engine (storeEngineOf(config)); the embedded one under `dataDir` when absent. */
  engine?: StoreEngine;
  /** Without `engine`: when set, the store is MongoDB at this URL (the older form of `engine`). */
  mongoUrl?: string;
  dataDir: string;
  /** MongoDB database, or PostgreSQL schema (in the database the URL names); MongoDB defaults to the URL's. */
  dbName?: string;
  /** The `store` label of its operation latencies (the service that owns it). */
  metricsName?: string;
}

function engineOf(options: OpenStoreOptions): StoreEngine {
  if (options.engine) return options.engine;
  return options.mongoUrl ? { engine: 'mongodb', url: options.mongoUrl } : { engine: 'embedded' };
}

export async function openStore(options: OpenStoreOptions): Promise<DocumentStore> {
  const engine = engineOf(options);
  let store: DocumentStore;
  if (engine.engine === 'mongodb') store = await openMongoStore(engine.url, options.dbName);
  else if (engine.engine === 'postgres')
    store = await openPostgresStore(engine.url, { schema: options.dbName ?? 'cms' });
  else store = await openEmbeddedStore(options.dataDir);
  return timedStore(store, options.metricsName ?? 'default');
}
