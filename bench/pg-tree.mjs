// The generated trees of bench/generate-tree.mjs on PostgreSQL (issue 24), for the search part to run the same
// queries on the same data on both engines.
//
// A tree is copied, not generated again: every collection of every service's embedded store (a copy of the
// cached data/) is read through the store port and inserted through the port into the PostgreSQL adapter, under
// the schema the service uses there (`cms_<service>`), so each stored document is the one the domain wrote, in
// the form the adapter stores it. Left out: `content_replicas` (one record per running content process) and
// identity's `login_attempts` (the generator's own throttle counts), which are per-process state, not the tree.
// Then a suite on the copy starts once, so that the real code makes what it makes on start (the adapter's
// indexes; the search catalog's text-search columns, which PostgreSQL computes from each catalog entry as it
// computes them on every write, and their GIN index), and checks that every folder holds what the plan put
// there and that the catalog finds every Document.
//
// The finished copy is cached as a database at PG_URL named after the tree's cache key (generator version, N,
// the cached tree's generation time) and this file's PG_COPY_VERSION; it is built as `<name>_partial` and renamed
// when complete, so a database of that name is always a whole copy. A run never serves the cache itself: it
// serves `CREATE DATABASE ... TEMPLATE <cache>` (PostgreSQL's file copy, seconds), dropped after, as the
// embedded runs serve a copy of data/.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { GENERATOR_VERSION, ensureTree, planTree } from './generate-tree.mjs';
import { ADMIN_AUTH, PG_URL, ROOT, copyDir, log, pool, request, startEmbedded, stopAll, tempDir } from './lib.mjs';

/** Bump when the way of copying changes: older cached databases are then ignored. */
export const PG_COPY_VERSION = 2;
/** Collections of per-process state, not part of the tree (see the top of this file). */
const NOT_COPIED = new Set(['content/content_replicas', 'identity/login_attempts']);
/** Inserts in flight per service, and the adapter's pool size per service for the copy (`?max=`). */
const COPY_CONCURRENCY = 12;
const STARTUP_TIMEOUT_MS = 10 * 60_000;
const STOP_GRACE_MS = 60_000;
/** A server engine needs the secrets a production deployment sets (identity refuses to start without). */
export const PG_SUITE_ENV = { JWT_SECRET: `bench-${'x'.repeat(40)}`, ADMIN_PASSWORD: 'admin' };

const require = createRequire(import.meta.url);
const { Client } = createRequire(join(ROOT, 'services/shared/package.json'))('pg');

function urlOf(database) {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `work` with a client on PG_URL's database (the one that holds no copy). */
async function withAdmin(work) {
  const client = new Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name) {
  return withAdmin(async (client) => {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rows.length > 0;
  });
}

/** The cached copy's database name: lower-case letters, digits and _ only (no quoting), under 63 bytes. */
export function pgTreeName(tree) {
  const key = createHash('sha256')
    .update(`${tree.manifest.generated_at}\0${tree.manifest.source_fingerprint}`)
    .digest('hex')
    .slice(0, 10);
  return `bench_tree_g${GENERATOR_VERSION}_n${tree.manifest.n}_c${PG_COPY_VERSION}_${key}`;
}

/** Every file the embedded stores keep besides collections (blobs): the copy does not carry them. */
function blobFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...blobFiles(full));
    else if (statSync(full).size > 0) found.push(full);
  }
  return found;
}

/** Copies every service's collections from the embedded data at `dataDir` into the database at `url`. */
async function copyCollections(dataDir, url, log) {
  const { openEmbeddedStore } = require(join(ROOT, 'services/shared/dist/adapters/store/embedded/embedded-store.js'));
  const { openPostgresStore } = require(join(ROOT, 'services/shared/dist/adapters/store/postgres/index.js'));
  const counts = {};
  const services = readdirSync(dataDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  // Services are copied at once, each by its own pool.
  await Promise.all(
    services.map(async ({ name: service }) => {
      const folder = join(dataDir, service);
      const blobs = existsSync(join(folder, 'blobs')) ? blobFiles(join(folder, 'blobs')) : [];
      if (blobs.length > 0) throw new Error(`${service} keeps files (${blobs[0]}); the PostgreSQL copy has no blobs`);
      const collections = readdirSync(folder)
        .filter((file) => file.endsWith('.db'))
        .map((file) => file.slice(0, -'.db'.length))
        .filter((collection) => !NOT_COPIED.has(`${service}/${collection}`))
        .sort();
      const started = Date.now();
      const embedded = await openEmbeddedStore(folder);
      const postgres = await openPostgresStore(url, { schema: `cms_${service}` });
      try {
        // One collection at a time: no more inserts in flight than the pool has connections (a caller waiting
        // for one longer than the adapter's connect timeout fails).
        for (const collection of collections) {
          const docs = await embedded.collection(collection).find({});
          const target = postgres.collection(collection);
          await pool(docs, COPY_CONCURRENCY, (doc) => target.insertOne(doc));
          const copied = await target.countDocuments({});
          if (copied !== docs.length) throw new Error(`${service}/${collection}: ${copied} of ${docs.length} copied`);
          if (docs.length > 0) counts[`${service}/${collection}`] = docs.length;
        }
      } finally {
        await Promise.allSettled([embedded.close(), postgres.close()]);
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const copied = collections.map((c) => `${c} ${counts[`${service}/${c}`] ?? 0}`).join(', ');
      log(`  copied ${service} in ${seconds} s: ${copied}`);
    }),
  );
  return counts;
}

/** Attempts of a check that answers 5xx: the suite may still be making its indexes on a loaded machine. */
const CHECK_ATTEMPTS = 5;

/** GET as admin; a 5xx answer is asked again, after a pause that grows. */
async function getChecked(url) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await request(url, { headers: { Authorization: ADMIN_AUTH, Accept: 'application/json' } });
    if (response.status < 500 || attempt >= CHECK_ATTEMPTS) return response;
    await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
  }
}

async function itemsTotal(baseUrl, path) {
  const response = await getChecked(`${baseUrl}${path === '/' ? '' : path}?b_size=1`);
  if (response.status !== 200) throw new Error(`GET ${path} on the PostgreSQL copy answered ${response.status}`);
  return JSON.parse(response.bytes.toString('utf8')).items_total;
}

/** The checks generate-tree.mjs makes of a tree it generated, on the copy: folders' counts, the catalog's. */
async function verifyCopy(baseUrl, n) {
  const plan = planTree(n);
  const wrong = [];
  await pool(Object.entries(plan.expectedItems), 2, async ([path, expected]) => {
    const total = await itemsTotal(baseUrl, path);
    if (total !== expected) wrong.push(`${path} holds ${total}, expected ${expected}`);
  });
  if (wrong.length > 0) throw new Error(`the PostgreSQL copy is wrong: ${wrong.slice(0, 10).join('; ')}`);
  const response = await getChecked(`${baseUrl}/@search?portal_type=Document&b_size=1`);
  const found = response.status === 200 ? JSON.parse(response.bytes.toString('utf8')).items_total : undefined;
  if (found !== plan.counts.documents) {
    throw new Error(
      `@search?portal_type=Document on the copy: ${response.status}, ${found} of ${plan.counts.documents}`,
    );
  }
}

/**
 * The cached PostgreSQL copy of `tree` (from ensureTree), made first when missing:
 * `{ name, url, copied, seconds }`.
 */
export async function ensurePgTree(tree, log) {
  const name = pgTreeName(tree);
  if (await databaseExists(name)) {
    log(`tree N=${tree.manifest.n} on PostgreSQL: cached database ${name}`);
    return { name, url: urlOf(name), copied: false };
  }
  const partial = `${name}_partial`;
  const started = Date.now();
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${partial}`);
  });
  try {
    log(`tree N=${tree.manifest.n} on PostgreSQL: copying ${tree.manifest.counts.total} objects' data into ${partial}`);
    // The embedded store takes a lock on its folder and may compact it: it opens a copy, never the cache.
    const source = copyDir(tree.dataDir, 'bench-pg-copy-');
    // Without waiting for each insert's WAL flush: the copy is checked, and only renamed into the cache, once whole.
    const copyUrl = new URL(urlOf(partial));
    copyUrl.searchParams.set('options', '-c synchronous_commit=off');
    copyUrl.searchParams.set('max', String(COPY_CONCURRENCY));
    await copyCollections(source, copyUrl.toString(), log);
    const copySeconds = (Date.now() - started) / 1000;
    const t = Date.now();
    const server = await startEmbedded(`pg copy N=${tree.manifest.n}`, {
      dataDir: tempDir('bench-pg-copy-run-'),
      workers: 0,
      readyTimeoutMs: STARTUP_TIMEOUT_MS,
      env: { STORE_URL: urlOf(partial), ...PG_SUITE_ENV },
    });
    const wrong = await verifyCopy(server.baseUrl, tree.manifest.n).then(
      () => undefined,
      (error) => error,
    );
    const exit = await server.stop(STOP_GRACE_MS);
    if (wrong) throw wrong;
    if (exit.code !== 0) throw new Error(`the suite on ${partial} did not stop cleanly (${JSON.stringify(exit)})`);
    // The planner's statistics, which autovacuum gathers some time after a bulk load (the clones inherit them): a
    // server running for a while has them, and without them PostgreSQL plans the catalog's queries blind.
    const client = new Client({ connectionString: urlOf(partial) });
    await client.connect();
    try {
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
    // Renamed only once whole: a database of the cache's name is always a finished copy.
    await withAdmin((client) => client.query(`ALTER DATABASE ${partial} RENAME TO ${name}`));
    const seconds = (Date.now() - started) / 1000;
    log(
      `tree N=${tree.manifest.n} on PostgreSQL: copied in ${copySeconds.toFixed(1)} s, indexed and verified by a ` +
        `suite and analyzed in ${((Date.now() - t) / 1000).toFixed(1)} s; cached as database ${name}`,
    );
    return { name, url: urlOf(name), copied: true, seconds };
  } catch (error) {
    await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`)).catch(() => {});
    throw error;
  }
}

/**
 * A database for one run made from the cached copy (PostgreSQL copies the template's files), with `drop()`.
 * The template must have no connection open: nothing holds the cache between runs.
 */
export async function clonePgTree(copy, prefix) {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${copy.name}`));
  return {
    name,
    url: urlOf(name),
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * The suite (embedded mode, GATEWAY_WORKERS=0) on a fresh database made from the PostgreSQL copy of the tree for
 * N, as content.mjs's startTree starts it on a copy of the embedded data: `{ n, tree, server, database }`;
 * `database.drop()` after the suite has stopped.
 */
export async function startPgTree(n, nodeArgs) {
  const tree = await ensureTree(n, log);
  const copy = await ensurePgTree(tree, log);
  const database = await clonePgTree(copy, 'bench_search');
  try {
    const started = Date.now();
    const server = await startEmbedded(`content N=${n} on PostgreSQL`, {
      dataDir: tempDir(`cms-bench-pg-tree-${n}-`),
      workers: 0,
      readyTimeoutMs: STARTUP_TIMEOUT_MS,
      nodeArgs,
      env: { STORE_URL: database.url, ...PG_SUITE_ENV },
    });
    log(
      `tree N=${n} on PostgreSQL: database ${database.name} (from ${copy.name}); suite ready in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { n, tree, server, database, manifest: tree.manifest };
  } catch (error) {
    await database.drop().catch(() => {});
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  let exitCode = 0;
  try {
    for (const n of sizes.length > 0 ? sizes : [1000, 100_000]) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`usage: pg-tree.mjs [N ...] (positive integers)`);
      await ensurePgTree(await ensureTree(n, log), log);
    }
  } catch (error) {
    exitCode = 1;
    process.stderr.write(`pg-tree failed: ${error.stack ?? error}\n`);
  } finally {
    await stopAll(5000);
  }
  process.exit(exitCode);
}
