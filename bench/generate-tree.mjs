// Generates the content tree of the content benchmarks through the service's
// real write path: embedded suites (services/embedded/dist/main.js) in child
// processes, and POSTs through the gateway as admin, so every stored document
// is one the service's domain code wrote.
//
// Shape for N objects (the site root not counted):
//   /listing                 a Folder holding exactly 1,000 Documents (the folder-listing bench)
//   /scratch                 an empty Folder the POST bench creates into
//   /aXX/bXX/cXX/document-N  three levels of Folders with b children each, Documents in the leaves
//                            (about 100 per leaf), so breadcrumbs and navigation have depth to walk
// b is the smallest branching (at least 2) that keeps leaves near 100 Documents: N=100,000 gives
// 10 x 10 x 10 leaves of ~98 Documents. A tree must hold the 1,000-item folder, so N=1,000 comes out at
// 1,024 objects (the manifest and the output give the real count). The target Document (the middle of
// the middle leaf), its folders and /listing are published.
//
// Why several suites: in the embedded store every write of a document costs time proportional to the
// number of documents sharing one of its index keys (NeDB's index removes a value from a key by copying
// the key's whole list; `allowed`, `ancestors` and `local_roles.principal` have keys every document
// shares), so one suite slows from ~150 to ~20 POST/s by 30,000 objects. So:
//   1. base     one suite creates every Folder and /listing's 1,000 Documents;
//   2. workers  BENCH_GEN_WORKERS suites (default 8), each on a copy of the base, create the leaves'
//               Documents, each worker its own leaves (nothing is written by two workers);
//   3. merge    per collection file, the base's documents plus every document a worker added or changed
//               (NeDB's files are logs of whole documents; a document changed by two workers fails);
//   4. final    a suite on the merged data checks every folder's item count and the search catalog's
//               Document count against the plan, publishes, and stops (compacting the files).
// With BENCH_GEN_WORKERS=1 that is a single suite writing the whole tree.
//
// The finished tree is cached under bench/.data/tree-g<GENERATOR_VERSION>-n<N>/ (data/ is the DATA_DIR,
// manifest.json says what is where); a run that fails leaves no cache. Benchmarks copy data/ before
// starting a server on it, so the cache is never written to.
//
//   node bench/generate-tree.mjs [N ...]    default: 1000 100000; BENCH_REGENERATE=1 rebuilds
// Env: BENCH_GEN_WORKERS (default 8), BENCH_GEN_CONCURRENCY (POSTs in flight per suite, default 3).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ADMIN_AUTH, pool, ROOT, startEmbedded } from './lib.mjs';

/** Bump when the shape or the way of writing changes: older caches are then ignored. */
export const GENERATOR_VERSION = 2;
export const DATA_ROOT = join(ROOT, 'bench/.data');
export const LISTING_SIZE = 1000;
/** Documents per leaf folder the branching aims at. */
const LEAF_TARGET = 100;
/** Compaction of a 100,000-document store on shutdown takes seconds; the suite's own limit is 15 s. */
const STOP_GRACE_MS = 60_000;

const pad = (n, width) => String(n).padStart(width, '0');

/** The paths of the tree for N objects, in creation order (parents before children), and where things are. */
export function planTree(n) {
  const rest = Math.max(n - LISTING_SIZE - 2, 0);
  const b = Math.max(2, Math.ceil(Math.cbrt(rest / LEAF_TARGET)));
  const folders = b + b * b + b * b * b;
  const leaves = b * b * b;
  const documents = Math.max(rest - folders, leaves);
  const width = String(b).length < 2 ? 2 : String(b).length;
  const name = (letter, i) => `${letter}${pad(i + 1, width)}`;
  const levels = [
    [
      { type: 'Folder', parent: '/', title: 'Listing' },
      { type: 'Folder', parent: '/', title: 'Scratch' },
    ],
  ];
  const level1 = [];
  for (let i = 0; i < b; i++) level1.push({ type: 'Folder', parent: '/', title: name('A', i) });
  const level2 = [];
  const level3 = [];
  for (let i = 0; i < b; i++) {
    for (let j = 0; j < b; j++) {
      const p2 = `/${name('a', i)}`;
      level2.push({ type: 'Folder', parent: p2, title: name('B', j) });
      for (let k = 0; k < b; k++) level3.push({ type: 'Folder', parent: `${p2}/${name('b', j)}`, title: name('C', k) });
    }
  }
  levels[0].push(...level1);
  levels.push(level2, level3);
  // Titles slug to the ids (cms.namefromtitle): "Document 000042" → document-000042.
  const docWidth = String(Math.max(documents, LISTING_SIZE)).length;
  const docs = [];
  for (let d = 0; d < LISTING_SIZE; d++)
    docs.push({ type: 'Document', parent: '/listing', title: `Item ${pad(d + 1, 4)}` });
  const leafPaths = level3.map((f) => `${f.parent}/${f.title.toLowerCase()}`);
  for (let d = 0; d < documents; d++) {
    docs.push({ type: 'Document', parent: leafPaths[d % leaves], title: `Document ${pad(d + 1, docWidth)}` });
  }
  for (const item of [...levels.flat(), ...docs]) {
    item.path = `${item.parent === '/' ? '' : item.parent}/${slug(item.title)}`;
  }

  const mid = Math.floor(b / 2);
  const middleLeaf = `/${name('a', mid)}/${name('b', mid)}/${name('c', mid)}`;
  const inLeaf = docs.filter((d) => d.parent === middleLeaf);
  const document = inLeaf[Math.floor(inLeaf.length / 2)].path;
  const leafCounts = Object.fromEntries(leafPaths.map((path) => [path, 0]));
  for (const d of docs) if (d.parent in leafCounts) leafCounts[d.parent] += 1;
  return {
    /** Created by the base suite, level by level. */
    baseLevels: [...levels, docs.filter((d) => d.parent === '/listing')],
    /** Created by the workers: the leaves' Documents. */
    leafDocs: docs.filter((d) => d.parent !== '/listing'),
    leafPaths,
    /** Items each folder must hold. */
    expectedItems: {
      '/listing': LISTING_SIZE,
      '/scratch': 0,
      ...Object.fromEntries(levels[0].slice(2).map((f) => [f.path, b])),
      ...Object.fromEntries(level2.map((f) => [f.path, b])),
      ...leafCounts,
    },
    branching: b,
    counts: {
      folders: folders + 2,
      documents: documents + LISTING_SIZE,
      total: folders + 2 + documents + LISTING_SIZE,
    },
    paths: {
      document,
      listing: '/listing',
      scratch: '/scratch',
      // Published so `workflow`, breadcrumbs and navigation have something besides private content.
      published: [...ancestorsOf(document), document, '/listing'],
    },
  };
}

function slug(title) {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

function ancestorsOf(path) {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/**
 * What the stored documents depend on: the built content service and store
 * code the generator's server loads. A tree written by other code may differ
 * from what the service writes today.
 */
export function sourceFingerprint() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.js')) hash.update(relative(ROOT, full)).update(readFileSync(full));
    }
  };
  for (const dir of [
    'services/content/dist',
    'services/shared/dist/store',
    'services/shared/dist/events',
    'services/shared/dist/ports',
    'services/shared/dist/adapters',
  ]) {
    walk(join(ROOT, dir));
  }
  return hash.digest('hex').slice(0, 16);
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function treeDir(n) {
  return join(DATA_ROOT, `tree-g${GENERATOR_VERSION}-n${n}`);
}

/** Bytes of every file under `dir`. */
export function dirBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : statSync(full).size;
  }
  return total;
}

/** Attempts of one POST that answered 5xx (a loaded machine: a call past its deadline) before the run fails. */
const POST_ATTEMPTS = 3;

/**
 * POSTs `item`; a 5xx answer is tried again, unless the item was made all the same (then it is there at its path:
 * a second POST would make a copy under another id).
 */
async function post(baseUrl, item) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await postOnce(baseUrl, item);
    } catch (error) {
      if (!error.retryable || attempt >= POST_ATTEMPTS) throw error;
      process.stderr.write(`${error.message.slice(0, 300)}; trying again (${attempt}/${POST_ATTEMPTS - 1})\n`);
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      const existing = await fetch(`${baseUrl}${item.path}`, {
        headers: { Authorization: ADMIN_AUTH, Accept: 'application/json' },
      });
      await existing.arrayBuffer();
      if (existing.status === 200) return;
    }
  }
}

async function postOnce(baseUrl, item) {
  const response = await fetch(`${baseUrl}${item.parent === '/' ? '' : item.parent}`, {
    method: 'POST',
    headers: { Authorization: ADMIN_AUTH, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ '@type': item.type, title: item.title }),
  });
  const text = await response.text();
  if (response.status !== 201) {
    const error = new Error(
      `POST ${item.parent} (${item.type} "${item.title}") answered ${response.status}: ${text.slice(0, 500)}`,
    );
    error.retryable = response.status >= 500;
    throw error;
  }
  const location = new URL(response.headers.get('location') ?? '').pathname;
  if (location !== item.path)
    throw new Error(`POST ${item.parent} "${item.title}" created ${location}, expected ${item.path}`);
}

async function publish(baseUrl, path) {
  const response = await fetch(`${baseUrl}${path}/@workflow/publish`, {
    method: 'POST',
    headers: { Authorization: ADMIN_AUTH, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 200)
    throw new Error(`publish ${path} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
}

const secondsSince = (t) => Number(((Date.now() - t) / 1000).toFixed(1));

/** The final state of an NeDB collection file: documents by _id (as their stored lines) and its index lines. */
function readCollection(file) {
  const docs = new Map();
  const meta = new Set();
  if (!existsSync(file)) return { docs, meta };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const value = JSON.parse(line);
    if (value._id === undefined) meta.add(line);
    else if (value.$$deleted === true) docs.delete(value._id);
    else docs.set(value._id, line);
  }
  return { docs, meta };
}

function collectionFiles(dir, under = dir, into = new Set()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) collectionFiles(full, under, into);
    else if (entry.name.endsWith('.db')) into.add(relative(under, full));
  }
  return into;
}

/**
 * Collections of per-process state that every worker writes alike and the tree does not need: identity's login
 * throttle records (each suite counts the same client address), and content's transaction log (`@transactions`:
 * bounded, so a worker drops the base's oldest entries as it writes; the tree needs no undo history). The base's
 * copy is kept.
 */
const NOT_MERGED = new Set([join('identity', 'login_attempts.db'), join('content', 'transactions.db')]);

/**
 * Merges the workers' data into the base's: per collection file, every
 * document a worker added or changed against the base. Fails when two workers
 * changed the same document or a worker removed one (the plan rules both out).
 */
function mergeData(baseDir, workerDirs, outDir) {
  // Anything besides collection files (e.g. the blob folder) is as the base left it; workers upload nothing.
  cpSync(baseDir, outDir, { recursive: true, filter: (src) => !src.endsWith('.db') });
  const files = new Set(collectionFiles(baseDir));
  for (const dir of workerDirs) collectionFiles(dir, dir, files);
  const changed = {};
  for (const file of [...files].sort()) {
    if (NOT_MERGED.has(file)) {
      if (existsSync(join(baseDir, file))) {
        mkdirSync(dirname(join(outDir, file)), { recursive: true });
        copyFileSync(join(baseDir, file), join(outDir, file));
      }
      continue;
    }
    const base = readCollection(join(baseDir, file));
    const merged = new Map(base.docs);
    const owner = new Map();
    const meta = new Set(base.meta);
    workerDirs.forEach((dir, k) => {
      const worker = readCollection(join(dir, file));
      for (const line of worker.meta) meta.add(line);
      for (const id of base.docs.keys()) {
        if (!worker.docs.has(id)) throw new Error(`merge: worker ${k} removed ${id} from ${file}`);
      }
      for (const [id, line] of worker.docs) {
        if (base.docs.get(id) === line) continue;
        if (owner.has(id)) throw new Error(`merge: workers ${owner.get(id)} and ${k} both changed ${id} in ${file}`);
        owner.set(id, k);
        merged.set(id, line);
      }
    });
    changed[file] = owner.size;
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    const lines = [...merged.values(), ...meta];
    writeFileSync(join(outDir, file), lines.length > 0 ? `${lines.join('\n')}\n` : '');
  }
  return changed;
}

/** `items_total` of the folder at `path`, as admin. */
export async function itemsTotal(baseUrl, path) {
  const response = await fetch(`${baseUrl}${path === '/' ? '' : path}?b_size=1`, {
    headers: { Authorization: ADMIN_AUTH, Accept: 'application/json' },
  });
  const body = await response.json().catch(() => undefined);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return body.items_total;
}

/** Every folder holds what the plan put there, and the search catalog has every Document. */
async function verifyTree(baseUrl, plan) {
  const wrong = [];
  await pool(Object.entries(plan.expectedItems), 4, async ([path, expected]) => {
    const total = await itemsTotal(baseUrl, path);
    if (total !== expected) wrong.push(`${path} holds ${total}, expected ${expected}`);
  });
  if (wrong.length > 0) throw new Error(`the generated tree is wrong: ${wrong.slice(0, 10).join('; ')}`);
  const response = await fetch(`${baseUrl}/@search?portal_type=Document&b_size=1`, {
    headers: { Authorization: ADMIN_AUTH, Accept: 'application/json' },
  });
  const found = (await response.json().catch(() => undefined))?.items_total;
  if (response.status !== 200 || found !== plan.counts.documents) {
    throw new Error(
      `@search?portal_type=Document answered ${response.status} with ${found}, expected ${plan.counts.documents}`,
    );
  }
}

/** Starts a suite on `dataDir`, runs `task` against it, stops it cleanly (compacting its files). */
async function withSuite(name, dataDir, task) {
  const server = await startEmbedded(name, { dataDir, workers: 0, readyTimeoutMs: 10 * 60_000 });
  try {
    const result = await task(server).catch((error) => {
      // What the server logged says why a request failed; its output goes nowhere else.
      process.stderr.write(`${server.describe()}\n`);
      throw error;
    });
    const exit = await server.stop(STOP_GRACE_MS);
    if (exit.code !== 0)
      throw new Error(`${name} did not stop cleanly (${JSON.stringify(exit)})\n${server.describe()}`);
    return result;
  } finally {
    await server.stop(5000);
  }
}

async function generate(n, dir, log) {
  const plan = planTree(n);
  const concurrency = Math.max(1, Math.round(Number(process.env.BENCH_GEN_CONCURRENCY ?? 3)));
  // Small trees are not worth several suites' start-up: about one worker per 5,000 leaf Documents.
  const workerCount = Math.min(
    Math.max(1, Math.round(Number(process.env.BENCH_GEN_WORKERS ?? 8))),
    Math.max(1, Math.ceil(plan.leafDocs.length / 5000)),
  );
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const total = plan.counts.total;
  const baseCount = plan.baseLevels.flat().length;
  log(
    `generating the ${total}-object tree for N=${n} (branching ${plan.branching}, ${plan.counts.folders} folders, ` +
      `${plan.counts.documents} documents) through the gateway into ${relative(ROOT, dir)}: ${baseCount} objects by ` +
      `one suite, then ${plan.leafDocs.length} by ${workerCount} suites at ${concurrency} POSTs in flight each`,
  );
  const started = Date.now();
  // Taken before the servers load the code it fingerprints.
  const fingerprint = sourceFingerprint();
  const seconds = {};
  try {
    let t = Date.now();
    const baseDir = join(work, 'base');
    await withSuite(`generator base N=${n}`, baseDir, async (server) => {
      for (const level of plan.baseLevels) await pool(level, concurrency * 2, (item) => post(server.baseUrl, item));
    });
    seconds.base = secondsSince(t);
    log(`  base: ${baseCount} objects in ${seconds.base} s`);

    t = Date.now();
    const workerDirs = [];
    const shares = Array.from({ length: workerCount }, () => []);
    const ownerOf = new Map(plan.leafPaths.map((path, i) => [path, i % workerCount]));
    for (const doc of plan.leafDocs) shares[ownerOf.get(doc.parent)].push(doc);
    let done = 0;
    let lastDone = 0;
    let lastReport = Date.now();
    const progress = () => {
      done += 1;
      if (Date.now() - lastReport < 15_000) return;
      // The recent rate, not the average: a store whose writes slow down as it grows shows here.
      const rate = (done - lastDone) / ((Date.now() - lastReport) / 1000);
      lastReport = Date.now();
      lastDone = done;
      log(
        `  ${done}/${plan.leafDocs.length} leaf Documents after ${secondsSince(t)} s, ${rate.toFixed(0)} POST/s over the last 15 s`,
      );
    };
    const outcomes = await Promise.allSettled(
      shares.map((share, k) => {
        const workerDir = join(work, `worker-${k}`);
        workerDirs.push(workerDir);
        cpSync(baseDir, workerDir, { recursive: true });
        return withSuite(`generator worker ${k} N=${n}`, workerDir, (server) =>
          pool(share, concurrency, (item) => post(server.baseUrl, item), progress),
        );
      }),
    );
    const failure = outcomes.find((o) => o.status === 'rejected');
    if (failure) throw failure.reason;
    seconds.workers = secondsSince(t);
    log(
      `  workers: ${plan.leafDocs.length} Documents in ${seconds.workers} s (${(plan.leafDocs.length / seconds.workers).toFixed(0)} POST/s)`,
    );

    t = Date.now();
    const dataDir = join(work, 'data');
    const changed = mergeData(baseDir, workerDirs, dataDir);
    seconds.merge = secondsSince(t);
    log(
      `  merge: ${Object.entries(changed)
        .filter(([, c]) => c > 0)
        .map(([file, c]) => `${file} +${c}`)
        .join(', ')} in ${seconds.merge} s`,
    );
    for (const other of [baseDir, ...workerDirs]) rmSync(other, { recursive: true, force: true });

    t = Date.now();
    let startup = 0;
    await withSuite(`generator final N=${n}`, dataDir, async (server) => {
      startup = secondsSince(t);
      await verifyTree(server.baseUrl, plan);
      for (const path of plan.paths.published) await publish(server.baseUrl, path);
    });
    seconds.final = secondsSince(t);
    log(
      `  final: suite start ${startup} s on ${total} objects, counts verified, published, stopped in ${seconds.final} s`,
    );
    seconds.total = secondsSince(started);
    const manifest = {
      generator_version: GENERATOR_VERSION,
      n,
      counts: plan.counts,
      branching: plan.branching,
      paths: plan.paths,
      generated_at: new Date().toISOString(),
      git_commit: gitCommit(),
      source_fingerprint: fingerprint,
      workers: workerCount,
      concurrency,
      seconds,
      final_startup_seconds: startup,
      data_bytes: dirBytes(dataDir),
    };
    writeFileSync(join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    log(`generated N=${n} in ${seconds.total} s, ${(manifest.data_bytes / 1e6).toFixed(1)} MB on disk`);
    return manifest;
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The cached tree for N (generated first if missing, of another generator
 * version, or BENCH_REGENERATE=1): `{ dir, dataDir, manifest, generated }`.
 */
export async function ensureTree(n, log = (line) => process.stdout.write(`${line}\n`)) {
  const dir = treeDir(n);
  const manifestFile = join(dir, 'manifest.json');
  if (process.env.BENCH_REGENERATE !== '1' && existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (manifest.generator_version === GENERATOR_VERSION) {
      const stale = manifest.source_fingerprint !== sourceFingerprint();
      log(
        `tree N=${n}: cached ${relative(ROOT, dir)} (${manifest.counts.total} objects, generated ${manifest.generated_at} ` +
          `at ${manifest.git_commit} in ${manifest.seconds.total} s)` +
          (stale
            ? '; the built content service has changed since, so stored documents may differ from what it writes ' +
              'today (BENCH_REGENERATE=1 rebuilds)'
            : ''),
      );
      return { dir, dataDir: join(dir, 'data'), manifest, generated: false };
    }
  }
  const manifest = await generate(n, dir, log);
  return { dir, dataDir: join(dir, 'data'), manifest, generated: true };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  let exitCode = 0;
  try {
    for (const n of sizes.length > 0 ? sizes : [1000, 100_000]) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`usage: generate-tree.mjs [N ...] (positive integers)`);
      await ensureTree(n);
    }
  } catch (error) {
    exitCode = 1;
    process.stderr.write(`generate-tree failed: ${error.stack ?? error}\n`);
  }
  process.exit(exitCode);
}
