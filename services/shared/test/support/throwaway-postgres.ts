/**
 * A PostgreSQL database of a test's own, created on the server the tests use and dropped after (with whatever
 * connections are still open to it). The server is `PG_URL`'s, default the local one (trust auth, user
 * `postgres`, database `test`), which every machine of this kind and CI run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface ThrowawayDatabase {
  /** The database's own URL. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database named `<prefix>_<random>` (the prefix says which test made it). */
export async function throwawayDatabase(prefix: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`.toLowerCase();
  await onServer((client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)),
  };
}
