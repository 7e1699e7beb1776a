import { promises as fs, mkdirSync, chmodSync } from 'node:fs';

/**
 * The data folder holds secrets (identity's JWT key, password hashes, the embedded mode's service key): its files
 * are readable by their owner only, and so are its folders, which also hides files an older version wrote 0644.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Makes `dir` (and the folders above it that it creates) owner-only; one that exists is made so too. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(dir, PRIVATE_DIR_MODE);
}

/** `makePrivateDir` for start-up code that is synchronous. */
export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}
