/**
 * A data folder belongs to one process (issue 24, item 4): a second process on a folder in use refuses to start,
 * naming the holder, and exits non-zero; a holder killed with SIGKILL (its lock file left behind) does not block
 * the restart. Runs the embedded mode (`services/embedded/dist/main.js`), whose five stores each lock their own
 * folder under DATA_DIR.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '../support/poll';
import { assertFilesExist, baseEnv, freePort, ROOT, startNode, type NodeProcess } from '../support/processes';

const EMBEDDED = join(ROOT, 'services', 'embedded', 'dist', 'main.js');
const READY_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 30_000;

let dataDir: string;
const started: NodeProcess[] = [];

async function startEmbedded(): Promise<{ child: NodeProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = startNode('embedded', EMBEDDED, {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  started.push(child);
  return { child, url };
}

async function untilReady({ child, url }: { child: NodeProcess; url: string }): Promise<void> {
  await pollUntil(
    async () => {
      if (!child.running) throw new Error(`exited early:\n${child.describe()}`);
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
      return response.status === 200;
    },
    READY_TIMEOUT_MS,
    { description: 'the embedded mode to be ready', intervalMs: 200 },
  );
}

async function exitOf(child: NodeProcess) {
  return pollUntil(() => child.exitStatus ?? undefined, EXIT_TIMEOUT_MS, {
    description: `${child.name} to exit`,
    intervalMs: 100,
  });
}

describe('one process per data folder', () => {
  beforeAll(() => {
    assertFilesExist([EMBEDDED], 'Build first: `npm run build` (or `npx tsc -b`).');
    dataDir = mkdtempSync(join(tmpdir(), 'cms-folder-lock-'));
  });

  afterAll(async () => {
    await Promise.all(started.map((child) => child.stop(10_000)));
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('refuses a second process on a folder in use, and lets a restart take over from a killed holder', async () => {
    const first = await startEmbedded();
    await untilReady(first);
    expect(existsSync(join(dataDir, 'content', 'LOCK'))).toBe(true);

    // A second process on the same DATA_DIR: refused, naming the holder, exit status 1.
    const second = await startEmbedded();
    const refused = await exitOf(second.child);
    expect(refused.code).toBe(1);
    expect(second.child.output).toContain(`is in use by process ${first.child.pid} on host ${hostname()} since `);
    expect(second.child.output).toMatch(/one process per data folder/);
    // The holder was not disturbed.
    await untilReady(first);

    // SIGKILL leaves the lock files behind; the next start finds their holder gone and takes the folders.
    await first.child.kill();
    expect(existsSync(join(dataDir, 'content', 'LOCK'))).toBe(true);
    const restarted = await startEmbedded();
    await untilReady(restarted);
    expect(restarted.child.output).not.toMatch(/in use by process/);

    // A clean stop lets the folders go: nothing is left to take over.
    const stopped = await restarted.child.stop(15_000);
    expect(stopped).toMatchObject({ code: 0, killed: false });
    for (const service of ['identity', 'content', 'search', 'discussion', 'config']) {
      expect(existsSync(join(dataDir, service, 'LOCK'))).toBe(false);
    }
  }, 180_000);
});
