/**
 * `npm run migrate` (the image's `migrate`, which the Helm chart's pre-upgrade Job and docker compose run before
 * the services start): applies the content store's pending data migrations (domain/site/data-migrations.ts, the same
 * ones `@upgrade` runs) on the store the services use (STORE_URL, else the embedded one under DATA_DIR).
 *
 * The events of a migration's writes go where every write's go: into the changed document's outbox
 * (events/outbox.ts). Content's outbox relay publishes them (it sweeps at start and every second after), so search
 * and the other consumers hear of them once a content process runs, whether it runs now or starts after.
 */
import { existsSync } from 'node:fs';
import { commonEnv, ConfigError, exitOnHelp, loadConfig, type DocumentStore } from '@cms/shared';
import { openServiceStore, serviceDataDir } from '@cms/shared/adapters';
import { z } from 'zod';
import { contentDataMigrations, DataMigrations } from './domain/site';
import { ContentWriter } from './domain/content';
import { StoreContentRepository } from './store/content-repository';
import { StoreDataVersion } from './store/data-version';

const USAGE = `usage: npm run migrate -- [--list | --dry-run]
  Applies the content store's pending data migrations (the ones \`@upgrade\` runs), oldest first, and prints each
  one's report. Idempotent: what is applied is recorded in the store (its data version), and a run again applies
  only what is still pending; a run stopped midway redoes the migration it was in (each one is idempotent itself)
  and goes on. A new store (no site yet)
  has nothing pending: content starts it at the latest version. Exit 1 when a migration fails (the ones before it
  stay applied), 2 on a usage error.
    --list      lists this release's migrations, each applied or pending, and changes nothing
    --dry-run   reports what a run would change, and changes nothing
  The events of its writes wait in content's outbox until a content process publishes them (at its start, or
  within a second when one runs). With the embedded store, stop the embedded mode first (it holds the store).
  Settings, from the environment:
    STORE_URL             the services' store (postgres://, mongodb://); unset: the embedded one under DATA_DIR
    DATA_DIR              the embedded mode's data folder (default ./data)
`;

const schema = z.object({
  STORE_URL: commonEnv.STORE_URL,
  MONGO_URL: commonEnv.MONGO_URL,
  DATA_DIR: commonEnv.DATA_DIR,
});

type Mode = 'run' | 'list' | 'dry-run';

function modeOf(args: string[]): Mode | null {
  if (args.length === 0) return 'run';
  if (args.length > 1) return null;
  return args[0] === '--list' ? 'list' : args[0] === '--dry-run' ? 'dry-run' : null;
}

/** A migration's writes keep their events in the outbox: a content process publishes them (see above). */
const OUTBOX_ONLY = { flush: async () => undefined };

async function migrate(store: DocumentStore, mode: Mode): Promise<void> {
  const repo = new StoreContentRepository(store);
  const versions = new StoreDataVersion(store);
  const migrations = new DataMigrations(versions, contentDataMigrations(repo, new ContentWriter(repo, OUTBOX_ONLY)));
  const { instance, fs, pending } = await migrations.status();
  // Data without a recorded version is from before versions were kept, unless there is no site at all.
  const newStore = (await versions.current()) === null && !(await repo.byPath('/'));
  if (mode === 'list') {
    console.log(`content data at version ${newStore ? `${fs} (a new store)` : instance}; this release writes ${fs}`);
    for (const migration of migrations.all) {
      const state = newStore || !pending.includes(migration) ? 'applied' : 'pending';
      console.log(`  ${migration.version} ${migration.id} (${state}): ${migration.description}`);
    }
    return;
  }
  if (newStore || pending.length === 0) {
    console.log(
      `migrate: no data migrations pending (content data ${newStore ? 'is a new store' : `at version ${instance}`}, ` +
        `the latest is ${fs})`,
    );
    return;
  }
  const run = await migrations.run(mode === 'dry-run');
  console.log(run.report);
}

async function main(args: string[]): Promise<number> {
  const mode = modeOf(args);
  if (!mode) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig(schema);
  // An embedded store that was never written holds no site: nothing to open (opening would create it).
  if (!config.STORE_URL && !config.MONGO_URL && !existsSync(serviceDataDir('content', config))) {
    console.log('migrate: no data migrations pending (no content data yet: a new site starts at the latest version)');
    return 0;
  }
  const store = await openServiceStore('content', config);
  try {
    await migrate(store, mode);
  } finally {
    await store.close();
  }
  return 0;
}

exitOnHelp(USAGE);
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof ConfigError ? error.message : `migrate failed: ${error.message}`);
    process.exit(1);
  },
);
