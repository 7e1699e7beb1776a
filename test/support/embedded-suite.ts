import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, type RunningSuite } from '@cms/embedded';

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

/** The embedded mode on a free port with its own data folder. */
export async function startTestSuite(
  env: NodeJS.ProcessEnv = {},
  dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-')),
): Promise<TestSuite> {
  const suite = await startSuite({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env });
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
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
