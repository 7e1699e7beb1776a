/**
 * `npm run import -- <folder>`: loads a Plone 6 export (plone.exportimport's folder layout) into a running suite
 * through content's `ImportObject`, as the user IMPORT_USER (a Manager or Site Administrator). It finds the
 * services at CONTENT_ADDRESS and IDENTITY_ADDRESS, else where the embedded mode on DATA_DIR wrote them, else at
 * their default ports.
 */
import {
  address,
  callUnary,
  ConfigError,
  createClient,
  loadConfig,
  progress,
  protos,
  suiteServiceAddress,
  type Principal__Output,
} from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { formatReport, importSite } from './exchange/import-site';
import { PloneExport } from './exchange/plone-export';

const USAGE = `Usage: npm run import -- <folder>

Loads a Plone 6 export written by plone.exportimport (content/, principals.json, ...) into a running suite
(\`npm start\`, or the distributed mode). Objects keep their UIDs, paths, dates, workflow states and history.
Objects already there (by UID) are skipped: run it again to finish an import that was cut short.
At the end it lists what it could not carry over, with counts and reasons.

Environment:
  IMPORT_USER        the user who imports, a Manager or Site Administrator (default admin)
  IMPORT_PASSWORD    that user's password (required)
  CONTENT_ADDRESS    the content service (default: from DATA_DIR/embedded-addresses.json, else 127.0.0.1:50051)
  IDENTITY_ADDRESS   the identity service (default: likewise, else 127.0.0.1:50052)
  DATA_DIR           the embedded mode's data folder (default ./data)
  IMPORT_TIMEOUT_MS  the longest one object's import may take (default 60000)
`;

const schema = z.object({
  IMPORT_USER: z.string().min(1).default('admin'),
  IMPORT_PASSWORD: z.string().min(1, 'IMPORT_PASSWORD is required'),
  CONTENT_ADDRESS: address.optional(),
  IDENTITY_ADDRESS: address.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  IMPORT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Largest gRPC message: an object with its files. */
  IMPORT_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
});

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length !== 1 || args[0].startsWith('-')) {
    process.stderr.write(USAGE);
    return 2;
  }
  // The export is checked before anything is connected to.
  const exported = await PloneExport.open(args[0]);
  const config = loadConfig(schema);
  const identityAt = suiteServiceAddress('identity', config.IDENTITY_ADDRESS, config.DATA_DIR, '127.0.0.1:50052');
  const contentAt = suiteServiceAddress('content', config.CONTENT_ADDRESS, config.DATA_DIR, '127.0.0.1:50051');
  const identity = createClient(protos().identity.IdentityService, identityAt.address, 4 * 1024 * 1024);
  const content = createClient(protos().content.ContentService, contentAt.address, config.IMPORT_MAX_MESSAGE_BYTES);
  try {
    const principal = await callUnary<Principal__Output>(
      (md, o, cb) =>
        identity.Authenticate({ basic: { login: config.IMPORT_USER, password: config.IMPORT_PASSWORD } }, md, o, cb),
      { requestId: randomUUID(), timeoutMs: config.IMPORT_TIMEOUT_MS },
    ).catch((error: Error) => {
      throw new Error(`${error.message} (identity service at ${identityAt.address}, from ${identityAt.from})`);
    });
    const report = await importSite(exported, {
      content,
      principal,
      timeoutMs: config.IMPORT_TIMEOUT_MS,
      progress: progress('import', exported.itemCount),
    });
    process.stdout.write(formatReport(report) + '\n');
    return report.failed.length ? 1 : 0;
  } finally {
    identity.close();
    content.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `import failed: ${error.message}`);
    process.exit(1);
  },
);
