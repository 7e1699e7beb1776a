/**
 * `npm run reindex`: asks the search service to rebuild its catalog from the
 * content store. It finds the search service at SEARCH_ADDRESS when that is
 * set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json
 * (services/embedded/src/addresses.ts); else at 127.0.0.1:50053.
 */
import { createClient, protos, runRebuildTool, type ProgressMessage } from '@cms/shared';

const DEFAULT_SEARCH_ADDRESS = '127.0.0.1:50053';

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

runRebuildTool({
  label: 'reindex',
  failing: 'reindex',
  usage: USAGE,
  service: 'search',
  addressVariable: 'SEARCH_ADDRESS',
  defaultAddress: DEFAULT_SEARCH_ADDRESS,
  timeoutVariable: 'REINDEX_TIMEOUT_MS',
  connect: (address) => createClient(protos().search.SearchService, address, 4 * 1024 * 1024),
  start: (client, request, metadata, options) =>
    client.Reindex(request, metadata, options) as AsyncIterable<ProgressMessage<{ indexed: number; removed: number }>>,
  done: (result) => `reindexed ${result.indexed} objects, removed ${result.removed} stale entries`,
});
