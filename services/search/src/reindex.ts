/**
 * `pnpm reindex`: asks the search service to rebuild its catalog from the
 * content store. SEARCH_ADDRESS names the search service (default 127.0.0.1:50053).
 */
import { address, callUnary, createClient, loadConfig, protos } from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const config = loadConfig(
  z.object({
    SEARCH_ADDRESS: address.default('127.0.0.1:50053'),
    REINDEX_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(30 * 60_000),
  }),
);
const client = createClient(protos().search.SearchService, config.SEARCH_ADDRESS, 4 * 1024 * 1024);
callUnary<{ indexed: number; removed: number }>((md, o, cb) => client.Reindex({}, md, o, cb), {
  requestId: randomUUID(),
  timeoutMs: config.REINDEX_TIMEOUT_MS,
}).then(
  (result) => {
    console.log(`reindexed ${result.indexed} objects, removed ${result.removed} stale entries`);
    client.close();
  },
  (error: Error) => {
    console.error(`reindex failed: ${error.message}`);
    process.exit(1);
  },
);
