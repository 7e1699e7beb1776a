// The image's `migrate` command (the Helm chart's pre-upgrade Job runs it). Data migrations of a version are
// listed in MIGRATIONS, oldest first; this version has none: each service creates its collections and indexes
// itself at start, and the RabbitMQ queue upgrade runs by itself (services/shared/src/events/FAILURES.md).
// A version that needs one adds it here with an idempotent `up`, so a re-run Job does no harm.
const MIGRATIONS = [];

async function main(args) {
  if (args.some((arg) => arg !== '--list')) {
    console.error('usage: migrate [--list]');
    return 2;
  }
  if (MIGRATIONS.length === 0) {
    console.log('migrate: no data migrations pending (this version defines none)');
    return 0;
  }
  for (const migration of MIGRATIONS) {
    if (args.includes('--list')) {
      console.log(`${migration.id}: ${migration.description}`);
      continue;
    }
    console.log(`migrate: applying ${migration.id}`);
    await migration.up(process.env);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`migrate failed: ${error.message}`);
    process.exit(1);
  },
);
