// The store part of `npm run bench` (`node bench/run.mjs store` alone): the
// embedded store (services/shared/dist/adapters/store/embedded/embedded-store.js) at 100,000 objects,
// in process against the store port (through HTTP, building such a tree takes
// 18 minutes; the content part measures POST through the suite):
//
//   build    100,000 content-like objects (the content service's indexes, ~1 KB
//            each) inserted through the port, 64 at a time, then closed
//   start    a fresh process opens the store: the file read and replayed, the
//            indexes built, the service's createIndex calls, one indexed query
//   insert   insertOne at 1 and at BENCH_CONNECTIONS concurrent writers
//   update   updateOne ($set, $inc) of random objects, at 1 and at BENCH_CONNECTIONS
//   sustain  BENCH_CONNECTIONS writers (inserts and updates) until the log has
//            been compacted in the background at least once, a folder
//            listing (sorted page) read every 50 ms meanwhile
//
// The longest event-loop stall is perf_hooks' monitorEventLoopDelay max over all
// the write phases (not the start); beside it, the GCs over the same window (their
// atomic pauses only: a major GC's incremental marking steps run on the event loop
// too and are not in them). Latencies are exact (every operation's own), sorted
// once the window is closed.
// Each phase runs BENCH_DURATION seconds (sustain: until compacted, at most
// BENCH_STORE_SUSTAIN_MAX s, default 180). Env BENCH_STORE_OBJECTS (default 100000).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, fmt, log, machineState, numberEnv, quantile, table, tempDir } from './lib.mjs';

const STARTUP_TARGET_S = 5;
const STALL_TARGET_MS = 100;
const P50_TARGET_MS = 10;
const COLLECTION = 'content';
export const FOLDERS = 100;

/** The content service's indexes (services/content/src/store/content-repository.ts). */
export const INDEXES = [
  [{ path: 1 }, { unique: true, sparse: true }],
  [{ parent_uid: 1, position: 1 }, {}],
  [{ ancestors: 1 }, {}],
  [{ allowed: 1 }, {}],
  [{ 'local_roles.principal': 1 }, {}],
  [{ subtree_stale: 1 }, { sparse: true }],
  [{ order_pending: 1 }, { sparse: true }],
  [{ 'transition_pending.at': 1 }, { sparse: true }],
];

function openStore(dataDir) {
  const require = createRequire(import.meta.url);
  const { openEmbeddedStore } = require(join(ROOT, 'services/shared/dist/adapters/store/embedded/embedded-store.js'));
  return openEmbeddedStore(dataDir);
}

export const folderUid = (f) => `folder${String(f).padStart(26, '0')}`;

/** A content-like object: a Document in one of FOLDERS folders, about 1 KB as JSON. */
export function contentObject(n, tag = 'b') {
  const folder = n % FOLDERS;
  const id = `${tag}${n.toString(16).padStart(31 - tag.length, '0')}x`;
  return {
    _id: id,
    path: `/site/folder-${folder}/${tag}-doc-${n}`,
    parent_uid: folderUid(folder),
    position: Math.floor(n / FOLDERS),
    ancestors: ['root', 'site', folderUid(folder)],
    allowed: ['Anonymous', 'Manager', 'user:admin'],
    local_roles: [{ principal: 'admin', roles: ['Owner'] }],
    type: 'Document',
    review_state: 'published',
    title: `Document ${n}`,
    description: 'A generated document of the store benchmark.',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    version: 1,
    blocks: {
      a: { '@type': 'title' },
      b: { '@type': 'slate', value: [{ type: 'p', children: [{ text: 'lorem ipsum '.repeat(40) }] }] },
    },
    blocks_layout: { items: ['a', 'b'] },
  };
}

async function createIndexes(collection) {
  for (const [keys, options] of INDEXES) await collection.createIndex(keys, options);
}

/** Runs `operation` from `concurrency` writers for `seconds`; returns ascending latencies (ms). */
async function loadFor(seconds, concurrency, operation, until = () => false) {
  const latencies = [];
  const deadline = performance.now() + seconds * 1000;
  const writer = async () => {
    while (performance.now() < deadline && !until()) {
      const started = performance.now();
      await operation();
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, writer));
  const elapsed = (performance.now() - started) / 1000;
  return { latencies, ops: latencies.length, rate: latencies.length / elapsed, elapsed };
}

/**
 * Sorts the latencies: called once the event loop is no longer being measured, since sorting the ~200,000
 * latencies of the sustained phase took 70 ms, which the stall measure then charged to the store.
 */
const summary = (r) => {
  const latencies = Float64Array.from(r.latencies).sort();
  return {
    ops: r.ops,
    rate: r.rate,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1),
  };
};

// ---------------------------------------------------------------------------
// Child process: build, or measure
// ---------------------------------------------------------------------------

async function childBuild(dataDir, objects) {
  const started = performance.now();
  const store = await openStore(dataDir);
  const content = store.collection(COLLECTION);
  await createIndexes(content);
  let next = 0;
  const writer = async () => {
    while (next < objects) await content.insertOne(contentObject(next++));
  };
  await Promise.all(Array.from({ length: 64 }, writer));
  await store.close();
  return { seconds: (performance.now() - started) / 1000, bytes: statSync(join(dataDir, `${COLLECTION}.db`)).size };
}

async function childMeasure(dataDir, objects, seconds, concurrency, sustainMax) {
  const file = join(dataDir, `${COLLECTION}.db`);
  const startedOpen = performance.now();
  const store = await openStore(dataDir);
  const content = store.collection(COLLECTION);
  await createIndexes(content);
  const listed = await content.find({ parent_uid: folderUid(1) }, { sort: { position: 1 }, limit: 25 });
  const startup = (performance.now() - startedOpen) / 1000;
  if (listed.length !== 25) throw new Error(`the listing found ${listed.length} objects, expected 25`);
  const count = await content.countDocuments({});
  const rssAfterStart = process.memoryUsage().rss / 1e6;

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // What the stalls were: the GC pauses over the same window (a major GC's atomic pause is a stall of its own).
  const gc = { major: 0, majorMaxMs: 0, minorMaxMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major += 1;
        gc.majorMaxMs = Math.max(gc.majorMaxMs, entry.duration);
      } else gc.minorMaxMs = Math.max(gc.minorMaxMs, entry.duration);
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const tag = `r${randomBytes(2).toString('hex')}`;
  let inserted = 0;
  const insert = () => content.insertOne(contentObject(inserted++, tag));
  const randomId = () => contentObject(Math.floor(Math.random() * objects))._id;
  let version = 1;
  const update = () =>
    content
      .updateOne(
        { _id: randomId() },
        { $set: { title: `Updated ${version}`, modified: new Date().toISOString() }, $inc: { version: 1 } },
      )
      .then(() => (version += 1));

  const runs = [];
  for (const [name, operation] of [
    ['insertOne', insert],
    ['updateOne', update],
  ]) {
    for (const c of [1, concurrency]) runs.push({ name, c, result: await loadFor(seconds, c, operation) });
  }

  // Sustained writes until a compaction has rewritten the file (it shrinks), with a folder listing meanwhile.
  let compactions = 0;
  let size = statSync(file).size;
  const watcher = setInterval(() => {
    const now = statSync(file).size;
    if (now < size) compactions += 1;
    size = now;
  }, 100);
  const reads = [];
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const started = performance.now();
      await content.find(
        { parent_uid: folderUid(Math.floor(Math.random() * FOLDERS)) },
        { sort: { position: -1 }, limit: 25 },
      );
      reads.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const mixed = () => (Math.random() < 0.5 ? insert() : update());
  const sustained = await loadFor(sustainMax, concurrency, mixed, () => compactions > 0);
  reading = false;
  await reader;
  clearInterval(watcher);
  histogram.disable();
  gcObserver.disconnect();
  const phases = runs.map(({ name, c, result }) => ({ name, c, ...summary(result) }));
  reads.sort((a, b) => a - b);
  const closeStarted = performance.now();
  await store.close();
  return {
    count,
    startup,
    rssAfterStart,
    phases,
    sustained: { ...summary(sustained), elapsed: sustained.elapsed, compactions },
    reads: { count: reads.length, p50: quantile(reads, 0.5), p99: quantile(reads, 0.99), max: reads.at(-1) },
    stallMs: histogram.max / 1e6,
    stallP99Ms: histogram.percentile(99) / 1e6,
    gc,
    closeSeconds: (performance.now() - closeStarted) / 1000,
  };
}

// ---------------------------------------------------------------------------
// The part
// ---------------------------------------------------------------------------

/** Runs this file as a child process in `mode`; resolves with the object it prints on its `RESULT` line. */
function child(mode, args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), mode, ...args.map(String)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const kill = () => proc.kill('SIGKILL');
    process.once('exit', kill);
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk.toString('utf8')));
    proc.on('exit', (code, signal) => {
      process.off('exit', kill);
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)));
      else reject(new Error(`store bench ${mode} exited with ${code ?? signal}:\n${out.slice(-2000)}`));
    });
  });
}

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

/** The latency of one group commit on this disk now: open, append 1 KB, fdatasync, close (median of 50). */
async function probeFsync(dir) {
  const file = join(dir, 'fsync-probe');
  const bytes = Buffer.alloc(1024, 120);
  const times = [];
  for (let i = 0; i < 50; i += 1) {
    const started = performance.now();
    const handle = await fs.open(file, 'a');
    await handle.write(bytes);
    await handle.datasync();
    await handle.close();
    times.push(performance.now() - started);
  }
  await fs.rm(file, { force: true });
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

export async function runStore(settings) {
  const started = Date.now();
  const objects = Math.round(numberEnv('BENCH_STORE_OBJECTS', 100_000));
  const sustainMax = numberEnv('BENCH_STORE_SUSTAIN_MAX', 180);
  const concurrency = settings.connections;
  log('Embedded store benchmark (npm run bench -- store)');
  log(`machine at start: ${machineState()}`);
  log(
    `settings: ${objects} objects, ${settings.duration} s per phase, concurrency 1 and ${concurrency}, ` +
      `sustained load until the first background compaction (at most ${sustainMax} s); in process, against the store port`,
  );
  const dataDir = tempDir('cms-bench-store-');
  const fsyncBefore = await probeFsync(dataDir);
  log(
    `disk: one commit (open, append, fdatasync, close) p50 ${fmt(fsyncBefore.p50, 2)} ms, p99 ${fmt(fsyncBefore.p99, 2)} ms ` +
      '(a write at 1 writer waits for one; at more writers for up to two, shared)',
  );
  const built = await child('build', [dataDir, objects]);
  log(
    `built ${objects} objects through the port (64 concurrent inserts) in ${fmt(built.seconds, 1)} s; ` +
      `file ${fmt(built.bytes / 1e6, 1)} MB after close`,
  );
  const m = await child('measure', [dataDir, objects, settings.duration, concurrency, sustainMax]);
  log(
    `start-up: ${fmt(m.startup, 2)} s to open ${m.count} objects (read, replay, indexes, one listing); ${fmt(m.rssAfterStart)} MB resident`,
  );
  log();
  log(
    table(
      ['operation', 'writers', 'ops', 'ops/s', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ...m.phases.map((p) => [p.name, p.c, p.ops, fmt(p.rate), fmt(p.p50, 2), fmt(p.p99, 2), fmt(p.max, 1)]),
        [
          'insert/update 50:50 (sustained)',
          concurrency,
          m.sustained.ops,
          fmt(m.sustained.rate),
          fmt(m.sustained.p50, 2),
          fmt(m.sustained.p99, 2),
          fmt(m.sustained.max, 1),
        ],
        [
          'folder listing during it',
          1,
          m.reads.count,
          '',
          fmt(m.reads.p50, 2),
          fmt(m.reads.p99, 2),
          fmt(m.reads.max, 1),
        ],
      ],
    ),
  );
  log(
    `sustained load: ${fmt(m.sustained.elapsed, 1)} s, ${m.sustained.compactions} background compaction(s) completed; ` +
      `close (final compaction) ${fmt(m.closeSeconds, 2)} s`,
  );
  log();
  const at = (name, c) => m.phases.find((p) => p.name === name && p.c === c);
  log(
    `target: start-up at ${objects} objects < ${STARTUP_TARGET_S} s: ${verdict(m.startup < STARTUP_TARGET_S)} (${fmt(m.startup, 2)} s)`,
  );
  log(
    `target: longest event-loop stall < ${STALL_TARGET_MS} ms during the write phases incl. compaction: ` +
      `${verdict(m.stallMs < STALL_TARGET_MS && m.sustained.compactions > 0)} (${fmt(m.stallMs, 1)} ms max, ` +
      `p99 ${fmt(m.stallP99Ms, 1)} ms; ${m.sustained.compactions} compaction(s) during the measure)`,
  );
  log(
    `GC over the same window: ${m.gc.major} major GC(s), longest atomic pause ${fmt(m.gc.majorMaxMs, 1)} ms ` +
      `(incremental marking not included); longest minor GC pause ${fmt(m.gc.minorMaxMs, 1)} ms`,
  );
  for (const name of ['insertOne', 'updateOne']) {
    const one = at(name, 1);
    const many = at(name, concurrency);
    log(
      `target: ${name} p50 < ${P50_TARGET_MS} ms at ${concurrency} writers: ${verdict(many.p50 < P50_TARGET_MS)} ` +
        `(${fmt(many.p50, 2)} ms at ${concurrency}, ${fmt(one.p50, 2)} ms at 1; ${fmt(many.rate)} vs ${fmt(one.rate)} ops/s)`,
    );
  }
  log(
    'not measured here: POST through the embedded suite at 10 connections at 100,000 objects (the content part, BENCH_CONTENT_SIZES)',
  );
  log(`machine at end:   ${machineState()}`);
  log(`store part ${fmt((Date.now() - started) / 1000, 1)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [mode, ...args] = process.argv.slice(2);
  const run =
    mode === 'build'
      ? childBuild(args[0], Number(args[1]))
      : mode === 'measure'
        ? childMeasure(args[0], Number(args[1]), Number(args[2]), Number(args[3]), Number(args[4]))
        : Promise.reject(
            new Error('usage: node bench/store.mjs build|measure <dir> ... (or node bench/run.mjs store)'),
          );
  run.then(
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
