import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startSuite, type RunningSuite } from '@cms/embedded';
import { createTestDatabase, dropTestDatabase } from './pg-database';

export const ADMIN = 'Basic ' + Buffer.from('admin:admin').toString('base64');

export interface TestSuite {
  suite: RunningSuite;
  dataDir: string;
  url: (path: string) => string;
  /** fetch against the gateway; JSON bodies are sent as given (strings) or serialised. */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; auth?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * With E2E_STORE=postgres, the suites run their services on PostgreSQL (the server of PG_URL) instead of the
 * embedded engine: each data folder gets a database of its own (named after it, so a suite restarted on its
 * folder finds its data), dropped with the folder.
 */
const ON_POSTGRES = process.env.E2E_STORE === 'postgres';

function databaseOf(dataDir: string): string {
  return basename(dataDir)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}

/** What the services need to run on PostgreSQL: the URL, and the secrets identity requires with a server engine. */
async function postgresEnv(dataDir: string, env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  return {
    STORE_URL: await createTestDatabase(databaseOf(dataDir)),
    ADMIN_PASSWORD: 'admin',
    JWT_SECRET: 'e2e-secret-of-the-suites-on-postgresql',
    ...env,
  };
}

/** The embedded mode on a free port with its own data folder. */
export async function startTestSuite(
  env: NodeJS.ProcessEnv = {},
  dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-')),
): Promise<TestSuite> {
  const storeEnv = ON_POSTGRES ? await postgresEnv(dataDir, env) : env;
  const suite = await startSuite({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...storeEnv });
  const base = `http://127.0.0.1:${suite.port}`;
  return {
    suite,
    dataDir,
    url: (path) => base + path,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
      const auth = options.auth === undefined ? ADMIN : options.auth;
      if (auth) headers.Authorization = auth;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return fetch(base + path, { method, headers, body });
    },
    async stop({ keepData = false } = {}) {
      await suite.stop();
      if (keepData) return;
      rmSync(dataDir, { recursive: true, force: true });
      if (ON_POSTGRES) await dropTestDatabase(databaseOf(dataDir));
    },
  };
}
