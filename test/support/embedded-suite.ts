import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, type RunningSuite } from '@cms/embedded';
import { createTestDatabase, type TestDatabase } from './postgres';

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
  /** A request as the administrator that must succeed: the answer, or an error naming it (status 300 or more). */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** The same, answering the JSON body (`{}` for a 204). */
  adminJson(method: string, path: string, body?: unknown): Promise<Record<string, any>>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * With E2E_STORE=postgres, the suites run their services on PostgreSQL (the server of PG_URL) instead of the
 * embedded engine: each data folder gets a database of its own (kept with the folder, so a suite restarted on
 * its folder finds its data), dropped with the folder. With E2E_STORE=sqlite, on SQLite files in the data folder.
 */
const ON_POSTGRES = process.env.E2E_STORE === 'postgres';
const ON_SQLITE = process.env.E2E_STORE === 'sqlite';
const databases = new Map<string, TestDatabase>();

/** What the services need to run on PostgreSQL: the URL, and the secrets identity requires with a server engine. */
async function postgresEnv(dataDir: string, env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  let database = databases.get(dataDir);
  if (!database) {
    database = await createTestDatabase('e2e');
    databases.set(dataDir, database);
  }
  return { STORE_URL: database.url, ...STORE_SECRETS, ...env };
}

/** What identity requires on any store but the embedded one. */
const STORE_SECRETS = { ADMIN_PASSWORD: 'admin', JWT_SECRET: 'e2e-secret-of-the-suites-on-a-store-server' };

/** The embedded mode on a free port with its own data folder. */
export async function startTestSuite(
  env: NodeJS.ProcessEnv = {},
  dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-')),
): Promise<TestSuite> {
  const storeEnv = ON_POSTGRES
    ? await postgresEnv(dataDir, env)
    : ON_SQLITE
      ? { STORE_URL: `sqlite://${join(dataDir, 'sqlite')}`, ...STORE_SECRETS, ...env }
      : env;
  const suite = await startSuite({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...storeEnv });
  const base = `http://127.0.0.1:${suite.port}`;
  const testSuite: TestSuite = {
    suite,
    dataDir,
    url: (path) => base + path,
    async admin(method, path, body) {
      const response = await testSuite.request(method, path, { body });
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response;
    },
    async adminJson(method, path, body) {
      const response = await testSuite.admin(method, path, body);
      return response.status === 204 ? {} : ((await response.json()) as Record<string, any>);
    },
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
      await databases.get(dataDir)?.dispose();
      databases.delete(dataDir);
    },
  };
  return testSuite;
}
