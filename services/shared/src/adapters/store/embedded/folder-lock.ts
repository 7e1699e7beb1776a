/**
 * One process per embedded data folder. The embedded engine keeps each collection in memory and appends to its
 * file: a second process on the same folder would load a stale copy and overwrite the first one's writes at its
 * next compaction. So the store takes the folder with a lock file (`LOCK`, created with O_EXCL) naming its holder,
 * and a second process refuses to open it.
 *
 * A holder killed without its `close` (SIGKILL, OOM, power loss) leaves its lock file behind; the next start takes
 * it over when the holder is provably gone:
 * - same host and same boot: the holder's pid is not running, or runs a process that started at another time
 *   (a restarted container may get the dead one's pid, e.g. pid 1: the start time in /proc/<pid>/stat tells them
 *   apart);
 * - same host, another boot: every process of that boot is gone;
 * - another host (a volume moved to a new pod or VM): the holder refreshes its lock file's modification time every
 *   few seconds while it runs, so a file not touched for REMOTE_STALE_MS belongs to a holder that is gone.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../../../store/private-files';

export const LOCK_FILE = 'LOCK';
const REFRESH_INTERVAL_MS = 5_000;
/** Six missed refreshes: a holder on another host this quiet is gone (or frozen, and then no longer writing). */
const REMOTE_STALE_MS = 30_000;
/** How long a lock file may stay empty while its creator writes it. */
const UNWRITTEN_GRACE_MS = 2_000;

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(255),
  bootId: z.string().max(64),
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat field 22); empty where there is no /proc. */
  startTicks: z.string().max(32),
  since: z.string().max(40),
  /** This lock's own id: a holder releases only the lock it still holds. */
  token: z.string().max(64),
});
export type LockHolder = z.infer<typeof holderSchema>;

/** A second process on a folder that a live process holds. */
export class FolderInUseError extends Error {
  override name = 'FolderInUseError';

  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    super(
      `data folder ${folder} is in use by process ${holder.pid} on host ${holder.host} since ${holder.since}: ` +
        'one process per data folder (give each process its own DATA_DIR, or use a shared store engine for ' +
        `replicas); if that process is gone for sure, delete ${path.join(folder, LOCK_FILE)}`,
    );
  }
}

export interface FolderLock {
  readonly holder: LockHolder;
  /** Deletes the lock file if it is still this lock's; stops refreshing it. */
  release(): Promise<void>;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const bootId = (): string => readText('/proc/sys/kernel/random/boot_id')?.trim() ?? '';

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses): state first. */
function statFields(pid: number): string[] | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function startTicksOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

function isRunning(pid: number): boolean {
  // A zombie (killed, not yet reaped by its parent) still answers kill(pid, 0), but writes nothing any more.
  if (statFields(pid)?.[0] === 'Z') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why the lock's holder is gone, or undefined while it may still be running. */
async function staleReason(file: string, holder: LockHolder | undefined): Promise<string | undefined> {
  const quietMs = Date.now() - (await fs.stat(file)).mtimeMs;
  // Unreadable: a holder that died between creating and writing it, unless it is still writing it.
  if (!holder) return quietMs > UNWRITTEN_GRACE_MS ? 'its lock file is unreadable' : undefined;
  if (holder.host !== hostname()) {
    return quietMs > REMOTE_STALE_MS ? `it has not refreshed the lock for ${Math.round(quietMs / 1000)} s` : undefined;
  }
  if (holder.bootId && holder.bootId !== bootId()) return 'the host has restarted since';
  if (!isRunning(holder.pid)) return 'its process is gone';
  const ticks = startTicksOf(holder.pid);
  if (holder.startTicks && ticks !== undefined && ticks !== holder.startTicks) {
    return 'its pid now belongs to another process';
  }
  return undefined;
}

/** The holder a lock file names, or undefined when it is unreadable. */
function readHolder(file: string): LockHolder | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readText(file) ?? '');
  } catch {
    return undefined;
  }
  const parsed = holderSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Creates the lock file naming `holder`; false when there is one already. */
async function createLockFile(file: string, holder: LockHolder): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(holder));
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Takes `folder` for this process, or throws FolderInUseError naming the live holder. `onTakeOver` hears of a
 * stale lock taken over (to log it).
 */
export async function lockFolder(
  folder: string,
  onTakeOver: (previous: LockHolder | undefined, reason: string) => void = () => {},
): Promise<FolderLock> {
  const file = path.join(folder, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    bootId: bootId(),
    startTicks: startTicksOf(process.pid) ?? '',
    since: new Date().toISOString(),
    token: randomUUID(),
  };
  // A few rounds: a stale lock is removed in one and the folder taken in the next. A process racing for the same
  // stale lock may take it first: it is then the live holder this one names.
  for (let round = 1; !(await createLockFile(file, holder)); round += 1) {
    const previous = readHolder(file);
    let reason: string | undefined;
    try {
      reason = await staleReason(file, previous);
    } catch (error) {
      // Released meanwhile: try again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (!reason || round >= 3) {
      if (previous) throw new FolderInUseError(folder, previous);
      throw new Error(`data folder ${folder} is being locked by another process (${file} not written yet)`);
    }
    onTakeOver(previous, reason);
    await fs.rm(file, { force: true });
  }

  const refresh = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now).catch(() => {
      // Gone or unwritable: the folder's own writes report that; a missed refresh only ages the file.
    });
  }, REFRESH_INTERVAL_MS);
  refresh.unref();

  return {
    holder,
    async release() {
      clearInterval(refresh);
      const current = readHolder(file);
      if (current?.token === holder.token) await fs.rm(file, { force: true });
    },
  };
}
