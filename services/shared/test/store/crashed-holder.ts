import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { LOCK_FILE } from '../../src/adapters/store/embedded/folder-lock';

/**
 * Makes the store open on `dir` look like one whose process was killed, so that a test can "restart" in the same
 * process: its lock file then names a holder that started at another time than the process now holding its pid
 * (what a restarted container that got the dead one's pid sees), and is taken over as stale. The store itself is
 * left open and unclosed, as a killed process leaves it.
 */
export async function markHolderCrashed(dir: string): Promise<void> {
  const file = path.join(dir, LOCK_FILE);
  const holder = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  await fs.writeFile(file, JSON.stringify({ ...holder, startTicks: '1', token: 'crashed' }));
}
