/**
 * Throwaway PostgreSQL databases for tests: one per run or per suite, created through the server's maintenance
 * connection (the URL's own database) and dropped after. PG_URL names the server, by default the local one's
 * `test` database (trust auth).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes';

/** The few pg calls used here (pg is a dependency of services/shared, not of the root). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
interface Pg {
  Client: new (options: { connectionString: string }) => PgClient;
}

const loadFromShared = createRequire(join(ROOT, 'services', 'shared', 'package.json'));
const pg = loadFromShared(loadFromShared.resolve('pg')) as Pg;

export const PG_URL = process.env.PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of another database on the server of `serverUrl`. */
export function pgDatabaseUrl(serverUrl: string, database: string): string {
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database name from `hint` (lower case letters, digits, `_`), unique to this process and moment. */
export function testDatabaseName(hint: string): string {
  const safe = hint
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 30);
  return `${safe}_${process.pid}_${Date.now().toString(36)}`;
}

/** Creates the database `name` (a plain identifier) unless it exists; resolves to its URL. */
export async function createTestDatabase(name: string, serverUrl = PG_URL): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  try {
    await onServer(serverUrl, `CREATE DATABASE ${name}`);
  } catch (error) {
    // 42P04: it exists (a suite restarted on its data).
    if ((error as { code?: string }).code !== '42P04') throw error;
  }
  return pgDatabaseUrl(serverUrl, name);
}

/** Drops the database, closing what is still connected to it. */
export async function dropTestDatabase(name: string, serverUrl = PG_URL): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
