/**
 * `npm run reindex`: asks the search service to rebuild its catalog from the
 * content store. It finds the search service at SEARCH_ADDRESS when that is
 * set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json
 * (services/embedded/src/addresses.ts); else at 127.0.0.1:50053.
 */
import { address, callUnary, ConfigError, createClient, loadConfig, protos } from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Written by the embedded mode while it runs (services/embedded/src/addresses.ts). */
const EMBEDDED_ADDRESSES_FILE = 'embedded-addresses.json';
const DEFAULT_SEARCH_ADDRESS = '127.0.0.1:50053';

const schema = z.object({
  SEARCH_ADDRESS: address.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REINDEX_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
});

/** Where the search service is, and how that was found (for the error message). */
function searchAddress(config: z.infer<typeof schema>): { address: string; from: string } {
  if (config.SEARCH_ADDRESS) return { address: config.SEARCH_ADDRESS, from: 'SEARCH_ADDRESS' };
  const file = join(config.DATA_DIR, EMBEDDED_ADDRESSES_FILE);
  if (existsSync(file)) {
    const written = address.safeParse((JSON.parse(readFileSync(file, 'utf8')) as { search?: unknown }).search);
    if (!written.success) throw new Error(`${file} names no search address`);
    return { address: written.data, from: `${file}, written by the embedded mode (is \`npm start\` running?)` };
  }
  return { address: DEFAULT_SEARCH_ADDRESS, from: 'the default; set SEARCH_ADDRESS' };
}

async function reindex(): Promise<void> {
  const config = loadConfig(schema);
  const search = searchAddress(config);
  const client = createClient(protos().search.SearchService, search.address, 4 * 1024 * 1024);
  try {
    const result = await callUnary<{ indexed: number; removed: number }>((md, o, cb) => client.Reindex({}, md, o, cb), {
      requestId: randomUUID(),
      timeoutMs: config.REINDEX_TIMEOUT_MS,
    }).catch((error: Error) => {
      throw new Error(`${error.message} (search service at ${search.address}, from ${search.from})`);
    });
    console.log(`reindexed ${result.indexed} objects, removed ${result.removed} stale entries`);
  } finally {
    client.close();
  }
}

reindex().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `reindex failed: ${error.message}`);
  process.exit(1);
});
