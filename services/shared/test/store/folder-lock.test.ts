import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderInUseError, LOCK_FILE, lockFolder } from '../../src/adapters/store/embedded/folder-lock';

/** A lock file as another process wrote it, aged `ageMs`. */
async function foreignLock(dir: string, holder: Record<string, unknown>, ageMs = 0): Promise<void> {
  const file = path.join(dir, LOCK_FILE);
  await fs.writeFile(file, JSON.stringify({ since: new Date().toISOString(), token: 'other', ...holder }));
  const at = new Date(Date.now() - ageMs);
  await fs.utimes(file, at, at);
}

describe('folder lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folder-lock-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('holds the folder until released, and names its holder to a second taker', async () => {
    const lock = await lockFolder(dir);
    const refused = await lockFolder(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FolderInUseError);
    expect((refused as FolderInUseError).holder).toMatchObject({ pid: process.pid, host: os.hostname() });
    await lock.release();
    const again = await lockFolder(dir);
    await again.release();
    await expect(fs.access(path.join(dir, LOCK_FILE))).rejects.toThrow();
  });

  it('takes over from a holder whose pid now runs another process, and releases only its own lock', async () => {
    const first = await lockFolder(dir);
    const file = path.join(dir, LOCK_FILE);
    const holder = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    // This process's pid, another start time: a dead holder whose pid was given again (a container's pid 1).
    await foreignLock(dir, { ...holder, startTicks: '1', token: 'dead' });
    const reasons: string[] = [];
    const second = await lockFolder(dir, (_, reason) => reasons.push(reason));
    expect(reasons).toEqual(['its pid now belongs to another process']);
    await first.release();
    await expect(lockFolder(dir)).rejects.toBeInstanceOf(FolderInUseError);
    await second.release();
  });

  it('waits for a holder on another host until it has stopped refreshing its lock', async () => {
    const remote = { pid: 1, host: 'another-host', bootId: 'b', startTicks: '1' };
    await foreignLock(dir, remote, 5_000);
    await expect(lockFolder(dir)).rejects.toThrow(/in use by process 1 on host another-host since/);
    await foreignLock(dir, remote, 120_000);
    const reasons: string[] = [];
    const lock = await lockFolder(dir, (_, reason) => reasons.push(reason));
    expect(reasons).toEqual([expect.stringMatching(/has not refreshed the lock for 1\d\d s/)]);
    await lock.release();
  });

  it('takes over an unreadable lock file once its writer has had time to write it', async () => {
    const file = path.join(dir, LOCK_FILE);
    await fs.writeFile(file, '');
    await expect(lockFolder(dir)).rejects.toThrow(/being locked by another process/);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file, old, old);
    const lock = await lockFolder(dir);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});
