// Runs the store contract (services/shared/test/store/contract.test.ts) against the engines given:
//   npm run test:store -- [--mongo mongodb://host/…] [--postgres postgres://host/…]
// The embedded and SQLite engines always run; PostgreSQL with --postgres, else PG_URL, else the local server's `test`
// database; MongoDB with --mongo, else MONGO_URL. Each server engine gets a throwaway database, dropped after.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;

let values;
try {
  ({ values } = parseArgs({ options: { mongo: { type: 'string' }, postgres: { type: 'string' } } }));
} catch (error) {
  console.error(`${error.message}\nusage: npm run test:store -- [--mongo mongodb://…] [--postgres postgres://…]`);
  process.exit(2);
}

const schemes = { mongo: /^mongodb(\+srv)?:\/\//, postgres: /^postgres(ql)?:\/\// };
for (const [option, scheme] of Object.entries(schemes)) {
  if (values[option] !== undefined && !scheme.test(values[option])) {
    console.error(`--${option}: expected a ${option === 'mongo' ? 'mongodb://' : 'postgres://'} URL`);
    process.exit(2);
  }
}

const env = { ...process.env };
if (values.mongo) env.MONGO_URL = values.mongo;
if (values.postgres) env.PG_URL = values.postgres;

const result = spawnSync(
  process.execPath,
  [join(root, 'node_modules/jest/bin/jest.js'), '--runInBand', 'services/shared/test/store/contract.test.ts'],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
