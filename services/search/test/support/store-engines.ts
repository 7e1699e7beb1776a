/**
 * The store engines the catalog's unit tests run on: the embedded engine (in a temporary folder) and PostgreSQL
 * (in a schema of its own in the test server's database, dropped after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DocumentStore } from '@cms/shared';
import { openEmbeddedStore, openPostgresStore } from '@cms/shared/adapters';
import { PG_URL } from '../../../../test/support/postgres';

export { PG_URL };

export interface TestStore {
  store: DocumentStore;
  /** Closes the store and removes what it held. */
  dispose(): Promise<void>;
}

export interface StoreEngine {
  name: 'embedded' | 'postgres';
  open(): Promise<TestStore>;
}

export const STORE_ENGINES: StoreEngine[] = [
  {
    name: 'embedded',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'search-store-'));
      const store = await openEmbeddedStore(dir);
      return {
        store,
        async dispose() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const schema = `search_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      const store = await openPostgresStore(PG_URL, { schema });
      return {
        store,
        async dispose() {
          try {
            await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          } finally {
            await store.close();
          }
        },
      };
    },
  },
];
