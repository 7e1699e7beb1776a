// The store-engines part of `npm run bench` (`node bench/run.mjs store-engines` alone): the embedded engine
// (NeDB, every document in the JS heap) and the SQLite engine (documents in a file) side by side, in process
// against the store port, at BENCH_ENGINES_OBJECTS (default 10,000) content-like objects with the content
// service's indexes (bench/store.mjs), each engine in a fresh child process and a fresh temp folder:
//
//   insert    insertOne of every object, one writer (each acknowledged once durable)
//   insert×C  insertOne at BENCH_CONNECTIONS concurrent writers (the embedded engine shares one fsync among the
//             writers waiting; SQLite commits one after the other)
//   update    updateOne ({_id}, $set + $inc) of random objects, one writer
//   get       findOne({_id}) of random objects
//   listing   find({parent_uid}, sort position, limit 25): a folder's first page
//   count     countDocuments({parent_uid}) of a random folder (100 objects at 10k)
//   count all countDocuments({})
//
// Each figure is the mean time per operation (µs) over BENCH_ENGINES_OPS operations (default 2,000; inserts: all
// objects), the median of BENCH_ROUNDS rounds (the engines alternate); beside it the JS heap used after a full GC
// with the objects loaded. A report, not a test.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, fmt, log, machineState, median, numberEnv, table, tempDir } from './lib.mjs';
import { FOLDERS, INDEXES, contentObject, folderUid } from './store.mjs';

const ENGINES = ['embedded', 'sqlite'];
const COLLECTION = 'content';

async function openEngine(engine, dir) {
  const require = createRequire(import.meta.url);
  if (engine === 'sqlite') {
    const { openSqliteStore } = require(join(ROOT, 'services/shared/dist/adapters/store/sqlite/index.js'));
    return openSqliteStore(join(dir, 'store.db'));
  }
  const { openEmbeddedStore } = require(join(ROOT, 'services/shared/dist/adapters/store/embedded/embedded-store.js'));
  return openEmbeddedStore(dir);
}

/** Mean µs per operation of `count` calls of `operation(i)`, `concurrency` at a time. */
async function perOp(count, operation, concurrency = 1) {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) await operation(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ((performance.now() - started) * 1000) / count;
}

async function childMeasure(engine, dir, objects, ops, concurrency) {
  const store = await openEngine(engine, dir);
  const content = store.collection(COLLECTION);
  for (const [keys, options] of INDEXES) await content.createIndex(keys, options);
  const randomId = () => contentObject(Math.floor(Math.random() * objects))._id;
  const result = {};
  result.insert = await perOp(objects, (n) => content.insertOne(contentObject(n)));
  result[`insert×${concurrency}`] = await perOp(ops, (n) => content.insertOne(contentObject(n, 'c')), concurrency);
  result.update = await perOp(ops, (n) =>
    content.updateOne({ _id: randomId() }, { $set: { title: `Updated ${n}` }, $inc: { version: 1 } }),
  );
  result.get = await perOp(ops, () => content.findOne({ _id: randomId() }));
  result.listing = await perOp(ops, () =>
    content.find({ parent_uid: folderUid(Math.floor(Math.random() * FOLDERS)) }, { sort: { position: 1 }, limit: 25 }),
  );
  result.count = await perOp(ops, () =>
    content.countDocuments({ parent_uid: folderUid(Math.floor(Math.random() * FOLDERS)) }),
  );
  result['count all'] = await perOp(Math.max(1, Math.round(ops / 10)), () => content.countDocuments({}));
  globalThis.gc?.();
  result.heapMb = process.memoryUsage().heapUsed / 1e6;
  await store.close();
  return result;
}

/** Runs this file as a child process for one engine; resolves with the object it prints on its RESULT line. */
function child(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...args.map(String)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk.toString('utf8')));
    proc.on('exit', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)));
      else reject(new Error(`store-engines child exited with ${code ?? signal}:\n${out.slice(-2000)}`));
    });
  });
}

export async function runStoreEngines(settings) {
  const started = Date.now();
  const objects = Math.round(numberEnv('BENCH_ENGINES_OBJECTS', 10_000));
  const ops = Math.round(numberEnv('BENCH_ENGINES_OPS', 2_000));
  const concurrency = settings.connections;
  log('Store engines side by side: embedded and SQLite (npm run bench -- store-engines)');
  log(`machine at start: ${machineState()}`);
  log(`settings: ${objects} objects, ${ops} operations a figure, ${settings.rounds} rounds, engines alternating`);
  const rounds = Object.fromEntries(ENGINES.map((engine) => [engine, []]));
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const engine of round % 2 ? ENGINES : [...ENGINES].reverse()) {
      const dir = tempDir(`cms-bench-${engine}-`);
      try {
        rounds[engine].push(await child(['measure', engine, dir, objects, ops, concurrency]));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      log(`round ${round}/${settings.rounds}: ${engine} done`);
    }
  }
  const figures = Object.keys(rounds.embedded[0]).filter((key) => key !== 'heapMb');
  const medianOf = (engine, key) => median(rounds[engine].map((result) => result[key]));
  const rows = figures.map((key) => {
    const embedded = medianOf('embedded', key);
    const sqlite = medianOf('sqlite', key);
    return [key, fmt(embedded), fmt(sqlite), fmt(sqlite / embedded, 2)];
  });
  rows.push(['heap MB', fmt(medianOf('embedded', 'heapMb'), 1), fmt(medianOf('sqlite', 'heapMb'), 1), '']);
  log(table(['µs per op (median of rounds)', 'embedded', 'sqlite', 'sqlite/embedded'], rows));
  log(`machine at end:   ${machineState()}`);
  log(`store-engines part ${fmt((Date.now() - started) / 1000, 1)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [mode, engine, dir, objects, ops, concurrency] = process.argv.slice(2);
  if (mode !== 'measure' || !ENGINES.includes(engine)) {
    process.stderr.write('usage: node bench/run.mjs store-engines\n');
    process.exit(2);
  }
  childMeasure(engine, dir, Number(objects), Number(ops), Number(concurrency)).then(
    (result) => {
      process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
