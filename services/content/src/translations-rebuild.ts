/**
 * `npm run translations:rebuild`: asks the content service to recompute every translation group from the
 * content store (its translation index, otherwise fed by content events). It finds the content service at
 * CONTENT_ADDRESS when that is set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json (services/embedded/src/addresses.ts); else at
 * 127.0.0.1:50051.
 */
import { createClient, protos, runRebuildTool, type ProgressMessage } from '@cms/shared';

const DEFAULT_CONTENT_ADDRESS = '127.0.0.1:50051';

const USAGE = `usage: npm run translations:rebuild -- [--from-scratch]
  Recomputes every translation group from the content store, through the running content service. Shows the
  objects read so far (a bar on a terminal, else a line every 2 s), then one line at the end. Stopped midway (the
  tool killed or interrupted, content restarted), the index is as it was (it is replaced only at the end, entry by
  entry, before the stale ones go). Run it again and it goes on from where it stopped: content keeps a checkpoint
  in its own store (every 500 objects and when the rebuild stops; any content replica resumes it, and the first
  progress line says "resuming the rebuild begun at …"), reads the objects after the last one saved, and the
  linked objects before it again as they are now (one query), so the groups are those of a rebuild in one go. A
  rebuild that ends drops its checkpoint: the next one starts over.
    --from-scratch        drop the checkpoint of a rebuild cut short and read every object again
  Settings, from the environment:
    CONTENT_ADDRESS       the content service (default: the embedded mode's, from DATA_DIR/embedded-addresses.json,
                          else ${DEFAULT_CONTENT_ADDRESS})
    DATA_DIR              the embedded mode's data folder (default ./data)
    SERVICE_AUTH_KEY      the suite's service key (default: the embedded mode's own)
    REBUILD_TIMEOUT_MS    how long the whole rebuild may last (default 30 minutes)
`;

runRebuildTool({
  label: 'translations',
  failing: 'translations rebuild',
  usage: USAGE,
  service: 'content',
  addressVariable: 'CONTENT_ADDRESS',
  defaultAddress: DEFAULT_CONTENT_ADDRESS,
  timeoutVariable: 'REBUILD_TIMEOUT_MS',
  connect: (address) => createClient(protos().content.ContentService, address, 4 * 1024 * 1024),
  start: (client, request, metadata, options) =>
    client.RebuildTranslations(request, metadata, options) as AsyncIterable<ProgressMessage<{ linked: number }>>,
  done: (result) => `rebuilt the translation groups: ${result.linked} objects linked`,
});
