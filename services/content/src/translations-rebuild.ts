/**
 * `npm run translations:rebuild`: asks the content service to recompute every translation group from the
 * content store (its translation index, otherwise fed by content events). It finds the content service at
 * CONTENT_ADDRESS when that is set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json (services/embedded/src/addresses.ts); else at
 * 127.0.0.1:50051.
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

const DEFAULT_CONTENT_ADDRESS = '127.0.0.1:50051';

const schema = z.object({
  ...serviceAuthEnv,
  CONTENT_ADDRESS: address.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REBUILD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
});

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

/** The options the tool takes; null for a usage error. */
function optionsOf(args: readonly string[]): { fromScratch: boolean } | null {
  if (args.some((arg) => arg !== '--from-scratch')) return null;
  return { fromScratch: args.includes('--from-scratch') };
}

async function rebuild(fromScratch: boolean): Promise<void> {
  const config = loadConfig(schema);
  const content = toolTarget(
    'content',
    { variable: 'CONTENT_ADDRESS', address: config.CONTENT_ADDRESS },
    config.DATA_DIR,
    DEFAULT_CONTENT_ADDRESS,
  );
  // The key the services verify: SERVICE_AUTH_KEY, else the embedded mode's own from its addresses file.
  useServiceKeys({ ...config, SERVICE_AUTH_KEY: config.SERVICE_AUTH_KEY ?? content.serviceKey });
  const client = createClient(protos().content.ContentService, content.address, 4 * 1024 * 1024);
  try {
    const requestId = randomUUID();
    const call = client.RebuildTranslations({ from_scratch: fromScratch }, requestMetadata(requestId), {
      deadline: Date.now() + config.REBUILD_TIMEOUT_MS,
    });
    const messages = call as AsyncIterable<ProgressMessage<{ linked: number }>>;
    const result = await followProgress('translations', messages, requestId).catch((error: Error) => {
      throw new Error(`${error.message} (content service at ${content.address}, from ${content.from})`);
    });
    console.log(`rebuilt the translation groups: ${result.linked} objects linked`);
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
rebuild(options.fromScratch).catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `translations rebuild failed: ${error.message}`);
  process.exit(1);
});
