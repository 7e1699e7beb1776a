/**
 * Issue 25, item 1: the embedded mode's data folder holds the JWT key, password hashes and the service key, so its
 * folders are owner-only (0700) and its files too (0600), whatever the umask and whatever an older version wrote.
 */
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/** Every file and folder under `dir` with its permission bits. */
function modesUnder(dir: string): Map<string, { mode: number; folder: boolean }> {
  const modes = new Map<string, { mode: number; folder: boolean }>();
  const walk = (path: string) => {
    const stat = statSync(path);
    modes.set(relative(dir, path) || '.', { mode: stat.mode & 0o777, folder: stat.isDirectory() });
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return modes;
}

describe('the embedded data folder is private', () => {
  let t: TestSuite;
  let dataDir: string;
  const previousUmask = process.umask(0o022);
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-modes-'));
    chmodSync(dataDir, 0o755);
    // A users collection as an older version left it: world-readable.
    mkdirSync(join(dataDir, 'identity'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'identity', 'users.db'), '', { mode: 0o644 });
    t = await startTestSuite({}, dataDir);
    const user = { username: 'modes', email: 'modes@example.org', password: 'a-long-password' };
    expect((await t.request('POST', '/@users', { body: user })).status).toBe(201);
    const file = { '@type': 'File', title: 'Bytes', file: { data: 'aGVsbG8=', encoding: 'base64', filename: 'a.txt' } };
    expect((await t.request('POST', '/', { body: file })).status).toBe(201);
  });
  afterAll(async () => {
    await t?.stop();
    process.umask(previousUmask);
  });

  it('has no file or folder that another user may read', () => {
    const modes = modesUnder(dataDir);
    // What the issue named: the JWT key, the password hashes, the addresses (and key) of the services.
    for (const name of ['identity/settings.db', 'identity/users.db', 'embedded-addresses.json'])
      expect({ name, mode: modes.get(name)?.mode.toString(8) }).toEqual({ name, mode: '600' });
    expect([...modes.keys()].some((name) => name.startsWith('content/blobs/'))).toBe(true);
    for (const [name, { mode, folder }] of modes)
      expect({ name, mode: mode.toString(8) }).toEqual({ name, mode: folder ? '700' : '600' });
  });
});
