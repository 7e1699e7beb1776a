// The SQLite store adapter on catalog-shaped documents: the queries the search service sends on every listing
// (permission tokens, a path's subtree, a word), timed on the adapter of a build folder, so that the same run on
// an older build gives the figures before.
//
//   node bench/sqlite-multikey.mjs [--dist services/shared/dist] [--docs 100000] [--runs 20]
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ROOT } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', default: join(ROOT, 'services/shared/dist') },
    docs: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '20' },
  },
});
const DOCS = Number(args.docs);
const RUNS = Number(args.runs);
const dist = resolve(args.dist);
const { openSqliteStore } = createRequire(join(dist, 'index.js'))(join(dist, 'adapters/store/sqlite/index.js'));

/** Numbers in [0, 1) from a counter's hash: the same documents on every run. */
const random = (() => {
  let counter = 0;
  return () => createHash('sha256').update(String(counter++)).digest().readUInt32BE(0) / 2 ** 32;
})();
const pick = (n) => Math.floor(random() * n);
const two = (n) => String(n).padStart(2, '0');
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `word${i}`);

function catalogEntry(n) {
  const a = `/a${two(pick(10))}`;
  const b = `${a}/b${two(pick(10))}`;
  const c = `${b}/c${two(pick(10))}`;
  const path = `${c}/doc${n}`;
  const words = [VOCABULARY[pick(VOCABULARY.length)], VOCABULARY[pick(VOCABULARY.length)], 'document'];
  if (n % 10_000 === 0) words.push('rareword');
  return {
    _id: `uid${n}`,
    path,
    path_parents: ['/', a, b, c, path],
    allowed: n % 2 ? ['Anonymous'] : ['Manager', 'user:admin'],
    words,
    modified: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  };
}

function median(samples) {
  const sorted = [...samples].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(label, work) {
  let result;
  const samples = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const start = performance.now();
    result = await work();
    // The first run prepares statements and warms the page cache.
    if (run > 0) samples.push(performance.now() - start);
  }
  const size = Array.isArray(result) ? `${result.length} docs` : String(result);
  console.log(`${label}: median ${median(samples).toFixed(2)} ms, max ${Math.max(...samples).toFixed(2)} ms (${size})`);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-sqlite-multikey-'));
const store = openSqliteStore(join(dir, 'catalog.db'));
try {
  const catalog = store.collection('catalog');
  console.log(`build ${dist}; ${DOCS} documents, ${RUNS} runs each; load ${os.loadavg().map((l) => l.toFixed(2))}`);
  let start = performance.now();
  const BATCH = 1000;
  for (let n = 0; n < DOCS; n += BATCH) {
    // One turn of the event loop: one group commit.
    await Promise.all(
      Array.from({ length: Math.min(BATCH, DOCS - n) }, (_, i) => catalog.insertOne(catalogEntry(n + i))),
    );
  }
  console.log(`insert: ${(performance.now() - start).toFixed(0)} ms`);
  start = performance.now();
  for (const field of ['path', 'path_parents', 'allowed', 'words', 'modified'])
    await catalog.createIndex({ [field]: 1 });
  console.log(`createIndex over the documents: ${(performance.now() - start).toFixed(0)} ms`);

  const listing = { allowed: { $in: ['Anonymous', 'user:x'] }, path_parents: '/a02/b02' };
  await timed('find listing sorted by modified, limit 25', () =>
    catalog.find(listing, { sort: { modified: -1 }, limit: 25 }),
  );
  await timed('countDocuments listing', () => catalog.countDocuments(listing));
  await timed("find {words: 'rareword'}", () => catalog.find({ words: 'rareword' }));
  await timed('find {allowed: Anonymous, words: rareword}', () =>
    catalog.find({ allowed: { $in: ['Anonymous', 'user:x'] }, words: 'rareword' }),
  );
  // `doc*` searches: the search service sends an anchored prefix.
  await timed("find {words: {$regex: '^word123'}}", () => catalog.find({ words: { $regex: '^word123' } }));
  await timed('find listing of a prefix sorted by modified, limit 25', () =>
    catalog.find(
      { allowed: { $in: ['Anonymous', 'user:x'] }, words: { $regex: '^word12' } },
      { sort: { modified: -1 }, limit: 25 },
    ),
  );
  start = performance.now();
  const UPDATES = 1000;
  await Promise.all(
    Array.from({ length: UPDATES }, (_, i) =>
      catalog.updateOne({ _id: `uid${i}` }, { $set: { words: ['changed', `word${i}`] } }),
    ),
  );
  console.log(`${UPDATES} updates of words in one group: ${(performance.now() - start).toFixed(0)} ms`);
  start = performance.now();
  await Promise.all(
    Array.from({ length: UPDATES }, (_, i) => catalog.updateOne({ _id: `uid${i}` }, { $set: { title: `title ${i}` } })),
  );
  console.log(`${UPDATES} updates of a field no index names, one group: ${(performance.now() - start).toFixed(0)} ms`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
