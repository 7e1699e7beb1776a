/**
 * `npm run reindex`: asks the search service to rebuild its catalog from the
 * content store. It finds the search service at SEARCH_ADDRESS when that is
 * set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json
 * (services/embedded/src/addresses.ts); else at 127.0.0.1:50053.
 */
import {
  address,
  callUnary,
  ConfigError,
  createClient,
  exitOnHelp,
  loadConfig,
  protos,
  serviceAuthEnv,
  toolTarget,
  useServiceKeys,
} from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const DEFAULT_SEARCH_ADDRESS = '127.0.0.1:50053';

const schema = z.object({
  ...serviceAuthEnv,
  SEARCH_ADDRESS: address.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REINDEX_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
});

const USAGE = `usage: npm run reindex
  Rebuilds the search catalog from the content and discussion stores, through the running search service (a call
  that lasts until the whole catalog is rebuilt; it prints one line at the end). Settings, from the environment:
    SEARCH_ADDRESS        the search service (default: the embedded mode's, from DATA_DIR/embedded-addresses.json,
                          else ${DEFAULT_SEARCH_ADDRESS})
    DATA_DIR              the embedded mode's data folder (default ./data)
    SERVICE_AUTH_KEY      the suite's service key (default: the embedded mode's own)
    REINDEX_TIMEOUT_MS    how long to wait for the answer (default 30 minutes)
`;

async function reindex(): Promise<void> {
  const config = loadConfig(schema);
  const search = toolTarget(
    'search',
    { variable: 'SEARCH_ADDRESS', address: config.SEARCH_ADDRESS },
    config.DATA_DIR,
    DEFAULT_SEARCH_ADDRESS,
  );
  // The key the services verify: SERVICE_AUTH_KEY, else the embedded mode's own from its addresses file.
  useServiceKeys({ ...config, SERVICE_AUTH_KEY: config.SERVICE_AUTH_KEY ?? search.serviceKey });
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

exitOnHelp(USAGE);
reindex().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `reindex failed: ${error.message}`);
  process.exit(1);
});
