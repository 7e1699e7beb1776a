import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendAddresses } from '@cms/gateway';
import { EMBEDDED_ADDRESSES_FILE, makePrivateDirSync, PRIVATE_FILE_MODE } from '@cms/shared';

/**
 * The embedded mode binds its services to free loopback ports; it writes them
 * to this file under DATA_DIR while it runs, so that tools started beside it
 * (`npm run reindex`, services/search/src/reindex.ts) can find them.
 * Format: the JSON object of `BackendAddresses` (`{"search": "127.0.0.1:41234", …}`) and `serviceKey`, the key
 * that signs calls to them (SERVICE_AUTH_KEY), which is why only its owner may read it.
 */
export const ADDRESSES_FILE = EMBEDDED_ADDRESSES_FILE;

export function addressesFileIn(dataDir: string): string {
  return join(dataDir, ADDRESSES_FILE);
}

/** Writes the file whole or not at all (a reader never sees half of it). */
export function writeAddressesFile(dataDir: string, addresses: BackendAddresses, serviceKey: string): void {
  makePrivateDirSync(dataDir);
  const path = addressesFileIn(dataDir);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify({ ...addresses, serviceKey }, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
  renameSync(partial, path);
}

/** At stop: the addresses are no longer served. */
export function removeAddressesFile(dataDir: string): void {
  rmSync(addressesFileIn(dataDir), { force: true });
}
