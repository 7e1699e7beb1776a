import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { address } from '../config/load';

/**
 * Written by the embedded mode while it runs (services/embedded/src/addresses.ts): where its services listen and
 * the key that signs calls to them, for the one-off tools started beside it (`npm run reindex`...).
 */
export const EMBEDDED_ADDRESSES_FILE = 'embedded-addresses.json';

export interface EmbeddedTarget {
  address: string;
  /** Absent in a file written before calls were signed. */
  serviceKey?: string;
  file: string;
}

/** Where the embedded mode running on `dataDir` serves `service`; undefined when it has written no file there. */
export function embeddedTarget(dataDir: string, service: string): EmbeddedTarget | undefined {
  const file = join(dataDir, EMBEDDED_ADDRESSES_FILE);
  if (!existsSync(file)) return undefined;
  const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const parsed = address.safeParse(written[service]);
  if (!parsed.success) throw new Error(`${file} names no ${service} address`);
  const serviceKey = typeof written.serviceKey === 'string' ? written.serviceKey : undefined;
  return { address: parsed.data, serviceKey, file };
}

/**
 * Where a one-off tool finds `service`: at the address its variable sets; else where the embedded mode on
 * `dataDir` serves it (with that mode's key); else at the default. `from` says which, for error messages.
 */
export function toolTarget(
  service: string,
  configured: { variable: string; address?: string },
  dataDir: string,
  fallback: string,
): { address: string; from: string; serviceKey?: string } {
  if (configured.address) return { address: configured.address, from: configured.variable };
  const embedded = embeddedTarget(dataDir, service);
  if (embedded)
    return {
      address: embedded.address,
      serviceKey: embedded.serviceKey,
      from: `${embedded.file}, written by the embedded mode (is \`npm start\` running?)`,
    };
  return { address: fallback, from: `the default; set ${configured.variable}` };
}
