/**
 * `npm run reindex`: asks the search service to rebuild its catalog from the
 * content store. It finds the search service at SEARCH_ADDRESS when that is
 * set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json
 * (services/embedded/src/addresses.ts); else at 127.0.0.1:50053.
 */
import {
  address,
  ConfigError,
  createClient,
  exitOnHelp,
  followProgress,
  loadConfig,
  protos,
  requestMetadata,
  serviceAuthEnv,
  toolTarget,
  useServiceKeys,
  type ProgressMessage,
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

const USAGE = `usage: npm run reindex -- [--from-scratch]
  Rebuilds the search catalog from the content and discussion stores, through the running search service. Shows
  the content objects indexed so far (a bar on a terminal, else a line every 2 s), then one line at the end.
  Stopped midway (the tool killed or interrupted, search or content restarted), the catalog is not worse than
  before: the entries written are the store's, the others as they were, and none is removed until the scan is
  complete. Run it again and it goes on from where it stopped: search keeps a checkpoint in its own store (every
  200 objects and when the rebuild stops; any search replica resumes it, and the first progress line says
  "resuming the rebuild begun at …"), the content scan goes on after the last object saved, and the rebuild still ends with the catalog equal to the stores (entries
  gone from them removed, the comments of the objects indexed before the stop indexed). A rebuild that ends drops
  its checkpoint: the next one starts over.
    --from-scratch        drop the checkpoint of a rebuild cut short and start over; use it after restoring a
                          store from a backup (what the earlier part wrote came from the store before the restore)
  Settings, from the environment:
    SEARCH_ADDRESS        the search service (default: the embedded mode's, from DATA_DIR/embedded-addresses.json,
                          else ${DEFAULT_SEARCH_ADDRESS})
    DATA_DIR              the embedded mode's data folder (default ./data)
    SERVICE_AUTH_KEY      the suite's service key (default: the embedded mode's own)
    REINDEX_TIMEOUT_MS    how long the whole rebuild may last (default 30 minutes)
`;

/** The options the tool takes; null for a usage error. */
function optionsOf(args: readonly string[]): { fromScratch: boolean } | null {
  if (args.some((arg) => arg !== '--from-scratch')) return null;
  return { fromScratch: args.includes('--from-scratch') };
}

async function reindex(fromScratch: boolean): Promise<void> {
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
    const requestId = randomUUID();
    const call = client.Reindex({ from_scratch: fromScratch }, requestMetadata(requestId), {
      deadline: Date.now() + config.REINDEX_TIMEOUT_MS,
    });
    const messages = call as AsyncIterable<ProgressMessage<{ indexed: number; removed: number }>>;
    const result = await followProgress('reindex', messages, requestId).catch((error: Error) => {
      throw new Error(`${error.message} (search service at ${search.address}, from ${search.from})`);
    });
    console.log(`reindexed ${result.indexed} objects, removed ${result.removed} stale entries`);
  } finally {
    client.close();
  }
}

exitOnHelp(USAGE);
const options = optionsOf(process.argv.slice(2));
if (!options) {
  process.stderr.write(USAGE);
  process.exit(2);
}
reindex(options.fromScratch).catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `reindex failed: ${error.message}`);
  process.exit(1);
});
