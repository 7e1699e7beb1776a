/**
 * `npm run translations:rebuild`: asks the content service to recompute every translation group from the
 * content store (its translation index, otherwise fed by content events). It finds the content service at
 * CONTENT_ADDRESS when that is set; else, when the embedded mode (`npm start`) runs on DATA_DIR, at the
 * address it wrote to DATA_DIR/embedded-addresses.json (services/embedded/src/addresses.ts); else at
 * 127.0.0.1:50051.
 */
import { address, callUnary, ConfigError, createClient, loadConfig, protos } from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Written by the embedded mode while it runs (services/embedded/src/addresses.ts). */
const EMBEDDED_ADDRESSES_FILE = 'embedded-addresses.json';
const DEFAULT_CONTENT_ADDRESS = '127.0.0.1:50051';

const schema = z.object({
  CONTENT_ADDRESS: address.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REBUILD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
});

/** Where the content service is, and how that was found (for the error message). */
function contentAddress(config: z.infer<typeof schema>): { address: string; from: string } {
  if (config.CONTENT_ADDRESS) return { address: config.CONTENT_ADDRESS, from: 'CONTENT_ADDRESS' };
  const file = join(config.DATA_DIR, EMBEDDED_ADDRESSES_FILE);
  if (existsSync(file)) {
    const written = address.safeParse((JSON.parse(readFileSync(file, 'utf8')) as { content?: unknown }).content);
    if (!written.success) throw new Error(`${file} names no content address`);
    return { address: written.data, from: `${file}, written by the embedded mode (is \`npm start\` running?)` };
  }
  return { address: DEFAULT_CONTENT_ADDRESS, from: 'the default; set CONTENT_ADDRESS' };
}

async function rebuild(): Promise<void> {
  const config = loadConfig(schema);
  const content = contentAddress(config);
  const client = createClient(protos().content.ContentService, content.address, 4 * 1024 * 1024);
  try {
    const result = await callUnary<{ linked: number }>((md, o, cb) => client.RebuildTranslations({}, md, o, cb), {
      requestId: randomUUID(),
      timeoutMs: config.REBUILD_TIMEOUT_MS,
    }).catch((error: Error) => {
      throw new Error(`${error.message} (content service at ${content.address}, from ${content.from})`);
    });
    console.log(`rebuilt the translation groups: ${result.linked} objects linked`);
  } finally {
    client.close();
  }
}

rebuild().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `translations rebuild failed: ${error.message}`);
  process.exit(1);
});
