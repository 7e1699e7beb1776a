import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendAddresses } from '@cms/gateway';

/**
 * The embedded mode binds its services to free loopback ports; it writes them
 * to this file under DATA_DIR while it runs, so that tools started beside it
 * (`npm run reindex`, services/search/src/reindex.ts) can find them.
 * Format: the JSON object of `BackendAddresses` (`{"search": "127.0.0.1:41234", …}`).
 */
export const ADDRESSES_FILE = 'embedded-addresses.json';

export function addressesFileIn(dataDir: string): string {
  return join(dataDir, ADDRESSES_FILE);
}

/** Writes the file whole or not at all (a reader never sees half of it). */
export function writeAddressesFile(dataDir: string, addresses: BackendAddresses): void {
  mkdirSync(dataDir, { recursive: true });
  const path = addressesFileIn(dataDir);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(addresses, null, 2) + '\n');
  renameSync(partial, path);
}

/** At stop: the addresses are no longer served. */
export function removeAddressesFile(dataDir: string): void {
  rmSync(addressesFileIn(dataDir), { force: true });
}
