/**
 * A PostgreSQL database of the test's own on the server at `PG_URL` (default: the machine's, as CI runs it), so
 * that suites never see each other's tables; `dispose` drops it with everything in it.
 */
import { redactUrl } from '@cms/shared';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes';

/** The few `pg` calls used here (pg is a dependency of services/shared, not of the root). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
interface Pg {
  Client: new (options: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
}

const loadFromShared = createRequire(join(ROOT, 'services', 'shared', 'package.json'));
const pg = loadFromShared(loadFromShared.resolve('pg')) as Pg;

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The server the tests use: `PG_URL`, else the machine's own. */
export const PG_URL = process.env.PG_URL || DEFAULT_PG_URL;

/** PostgreSQL's limit on an identifier's length (NAMEDATALEN - 1). */
const MAX_IDENTIFIER_LENGTH = 63;
let databasesMade = 0;

export interface TestDatabase {
  /** The new database's URL: the server's URL with its name as the path. */
  url: string;
  name: string;
  /** Drops the database, closing the connections still open to it (WITH (FORCE)). */
  dispose(): Promise<void>;
}

/** Runs statements on the server's maintenance database (the one `serverUrl` names). */
async function onServer(serverUrl: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach PostgreSQL at ${redactUrl(serverUrl)} (start it with \`pg_ctlcluster --skip-systemctl-redirect ` +
        `$(ls /etc/postgresql) main start\`, or set PG_URL): ${String(error)}`,
      { cause: error },
    );
  }
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates `cms_<label>_<pid>_<n>` on the server of `serverUrl` (PG_URL, else DEFAULT_PG_URL): unique per test
 * process and call, so parallel runs on one server do not collide.
 */
export async function createTestDatabase(label: string, serverUrl = PG_URL): Promise<TestDatabase> {
  const suffix = `_${process.pid}_${++databasesMade}`;
  const stem = `cms_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
  // Only [a-z0-9_]: safe to quote into SQL as it is.
  const name = stem.slice(0, MAX_IDENTIFIER_LENGTH - suffix.length) + suffix;
  await onServer(serverUrl, [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`, `CREATE DATABASE "${name}"`]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    dispose: () => onServer(serverUrl, [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]),
  };
}
