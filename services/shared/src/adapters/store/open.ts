import type { StoreEngine } from '../../config/load';
import type { Logger } from '../../logging/logger';
import { openEmbeddedStore } from './embedded/embedded-store';
import { openMongoStore } from './mongo/mongo-store';
import type { DocumentStore } from '../../ports/store';
import { openPostgresStore } from './postgres';
import { openSqliteStore, sqliteFileOf } from './sqlite';
import { timedStore } from './timed';

export interface OpenStoreOptions {
  /** The engine (storeEngineOf(config)); the embedded one under `dataDir` when absent. */
  engine?: StoreEngine;
  /** Without `engine`: when set, the store is MongoDB at this URL (the older form of `engine`). */
  mongoUrl?: string;
  dataDir: string;
  /**
   * MongoDB database, PostgreSQL schema (in the database the URL names), or SQLite file (`<name>.db` in the folder
   * the URL names); MongoDB defaults to the URL's, the others to `cms`.
   */
  dbName?: string;
  /** The `store` label of its operation latencies (the service that owns it). */
  metricsName?: string;
  /** Hears of an embedded folder's stale lock taken over. */
  logger?: Logger;
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
  else if (engine.engine === 'sqlite') store = openSqliteStore(sqliteFileOf(engine.url, options.dbName ?? 'cms'));
  else store = await openEmbeddedStore(options.dataDir, options.logger);
  return timedStore(store, options.metricsName ?? 'default');
}
