/**
 * A bad environment variable stops a process at start with one readable line
 * per bad variable on stderr, `Invalid configuration: NAME: problem`, and exit
 * status 1: no JSON log record, no stack. Runs the built entry points (dist/,
 * made by `npm test` / `npm run build` before the tests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertFilesExist, baseEnv, ROOT, runNode } from '../support/processes';

const GATEWAY = join(ROOT, 'gateway', 'dist', 'main.js');
const EMBEDDED = join(ROOT, 'services', 'embedded', 'dist', 'main.js');
const SEARCH = join(ROOT, 'services', 'search', 'dist', 'main.js');

/** Runs `script` with `env` to its end; its exit status and its output, stdout and stderr apart. */
async function run(script: string, env: NodeJS.ProcessEnv) {
  const { code, output } = await runNode(script, script, { ...baseEnv(), ...env }, 20_000);
  const lines = output.split('\n').filter(Boolean);
  return {
    code,
    stderr: lines.filter((line) => line.startsWith('[err] ')).map((line) => line.slice('[err] '.length)),
    stdout: lines.filter((line) => !line.startsWith('[')),
  };
}

describe('start-up with a bad configuration', () => {
  let dataDir: string;
  beforeAll(() => {
    assertFilesExist([GATEWAY, EMBEDDED, SEARCH], 'Build first: `npm run build` (or `npx tsc -b`).');
    dataDir = mkdtempSync(join(tmpdir(), 'cms-startup-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the gateway names each bad variable on its own line and exits 1', async () => {
    const result = await run(GATEWAY, { PORT: 'abc', GATEWAY_WORKERS: '-1' });
    expect(result).toEqual({
      code: 1,
      stderr: [
        'Invalid configuration: PORT: Expected number, received nan',
        'Invalid configuration: GATEWAY_WORKERS: Number must be greater than or equal to 0',
      ],
      stdout: [],
    });
  });

  it('the embedded mode (npm start) does the same', async () => {
    const result = await run(EMBEDDED, { PORT: 'abc', DATA_DIR: dataDir });
    expect(result).toEqual({
      code: 1,
      stderr: ['Invalid configuration: PORT: Expected number, received nan'],
      stdout: [],
    });
  });

  it('a service in its own process too (a rule across variables included)', async () => {
    const result = await run(SEARCH, { DATA_DIR: dataDir });
    expect(result).toEqual({
      code: 1,
      stderr: [
        'Invalid configuration: AMQP_URL: required when a service runs as its own process',
        'Invalid configuration: SERVICE_AUTH_KEY: required when a service runs as its own process (the key every process of the suite shares)',
      ],
      stdout: [],
    });
  });

  it('a gateway or service in its own process needs the key that signs calls between processes', async () => {
    const withBroker = { DATA_DIR: dataDir, AMQP_URL: 'amqp://127.0.0.1:1' };
    for (const script of [GATEWAY, SEARCH]) {
      const result = await run(script, script === GATEWAY ? {} : withBroker);
      expect(result.code).toBe(1);
      expect(result.stderr).toEqual([
        'Invalid configuration: SERVICE_AUTH_KEY: required when a service runs as its own process (the key every process of the suite shares)',
      ]);
    }
    const short = await run(GATEWAY, { SERVICE_AUTH_KEY: 'too-short' });
    expect(short.stderr).toEqual([
      'Invalid configuration: SERVICE_AUTH_KEY: String must contain at least 32 character(s)',
    ]);
  });
});
