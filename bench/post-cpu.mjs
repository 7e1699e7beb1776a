// `node bench/run.mjs post-cpu`: what a POST of a Document costs (issue 27, target 3). The embedded suite
// (services/embedded/dist/main.js, GATEWAY_WORKERS=0: one process) in a child process on a fresh DATA_DIR, seeded
// with a Folder and a published Document (bench/lib.mjs `seedDocument`). Each round, in this order:
//
//   GET       the published Document, anonymous and uncached (`Cache-Control: no-cache` skips the gateway cache),
//             BENCH_CONNECTIONS connections for BENCH_DURATION s: p50 per 2xx answer (ms, fractional)
//   POST x1   BENCH_POST_COUNT (1000) POSTs of a Document (distinct ids) into the Folder as admin with Basic, at one
//             connection
//   POST x10  the same at BENCH_CONNECTIONS connections
//
// CPU per POST is the child's utime + stime (/proc/<pid>/stat: the whole process, every thread) from just before
// the first POST until the process is idle again after the last answer (two 250 ms windows with at most one clock
// tick each), divided by the POSTs answered 201. Nothing is subtracted: the work a write leaves behind in the same
// process (the outbox relay publishing its events, search indexing the new object, the gateway's change feed,
// compaction of the append log) counts, and so do the idle process's timers over the time measured (the idle rate
// is printed beside it). The verdicts take the median round: "issue 27 target 3: POST CPU <= 1.5 ms" on the
// POSTs at BENCH_CONNECTIONS connections, and "POST p50 <= 3 x GET p50" at BENCH_CONNECTIONS connections.
//
// BENCH_POST_BASELINE=<path of another checkout's services/embedded/dist/main.js> runs that build beside this one,
// in its own child and DATA_DIR, interleaved step by step (before/after figures from one run; every other round in
// the reverse order); several as `label=path,label=path`.
// BENCH_POST_SQLITE=1 runs this build a second time on the SQLite engine (STORE_URL=sqlite://<temporary folder>).
// Env: BENCH_ROUNDS (3), BENCH_DURATION (s, GET, default 10), BENCH_CONNECTIONS (10), BENCH_POST_COUNT (1000),
// BENCH_POST_WARMUP (200 POSTs and 2 s of GETs per suite before the rounds, discarded).
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  EMBEDDED_MAIN,
  FOLDER_ID,
  embeddedEnv,
  fmt,
  freePort,
  loadWithLatencies,
  log,
  machineState,
  numberEnv,
  quantile,
  seedDocument,
  sleep,
  startChild,
  stopAll,
  table,
  tempDir,
  waitForReady,
} from './lib.mjs';

const CPU_TARGET_MS = 1.5;
const P50_RATIO_TARGET = 3;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** utime + stime of one process (all its threads), in ms. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
}

/** Waits until the process has been idle (at most one tick per 250 ms) for two windows in a row; at most 10 s. */
async function settle(pid) {
  let quiet = 0;
  let last = cpuMs(pid);
  for (let i = 0; i < 40 && quiet < 2; i++) {
    await sleep(250);
    const now = cpuMs(pid);
    quiet = now - last <= TICK_MS ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

async function startSuite(label, main, env = {}) {
  const port = await freePort();
  const handle = startChild(`post-cpu ${label}`, [main], {
    ...embeddedEnv({ port, dataDir: tempDir('bench-post-cpu-'), workers: 0 }),
    ...env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(handle, baseUrl);
  await seedDocument(baseUrl);
  return { label, main, handle, baseUrl, rounds: [] };
}

let batch = 0;

/** `count` POSTs of Documents with distinct ids at `connections`: p50, 201s, and CPU ms of the process. */
async function posts(suite, connections, count) {
  const prefix = `p${++batch}-`;
  let next = 0;
  const before = await settle(suite.handle.pid);
  const started = Date.now();
  const result = await loadWithLatencies(`${suite.baseUrl}/${FOLDER_ID}`, {
    connections,
    amount: count,
    requests: [
      {
        method: 'POST',
        headers: { Authorization: ADMIN_AUTH, Accept: 'application/json', 'Content-Type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({
            '@type': 'Document',
            id: `${prefix}${++next}`,
            title: `Write benchmark page ${next}`,
            description: 'A Document written by bench/post-cpu.mjs.',
          }),
        }),
      },
    ],
  });
  const answered = Date.now();
  const after = await settle(suite.handle.pid);
  const created = result['2xx'];
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    created,
    bad,
    p50: quantile(result.latencies, 0.5),
    p99: quantile(result.latencies, 0.99),
    cpuPerPost: (after - before) / created,
    wallS: (answered - started) / 1000,
  };
}

async function gets(suite, connections, duration) {
  const result = await loadWithLatencies(`${suite.baseUrl}${DOCUMENT_PATH}`, {
    connections,
    duration,
    headers: { 'Cache-Control': 'no-cache', Accept: 'application/json' },
  });
  return {
    rps: result.requests.average,
    p50: quantile(result.latencies, 0.5),
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** CPU ms per second of the process doing nothing (timers, health), over 2 s. */
async function idleRate(suite) {
  const before = await settle(suite.handle.pid);
  await sleep(2000);
  return (cpuMs(suite.handle.pid) - before) / 2;
}

const medianBy = (rows, pick) => {
  const sorted = [...rows].sort((a, b) => pick(a) - pick(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

export async function runPostCpu(settings) {
  const count = Math.round(numberEnv('BENCH_POST_COUNT', 1000));
  const warmup = Math.round(numberEnv('BENCH_POST_WARMUP', 200));
  const { connections, duration, rounds } = settings;
  log(`post-cpu (issue 27, target 3): ${machineState()}`);
  log(
    `settings: ${rounds} rounds; per round GET (anonymous uncached) ${duration} s at ${connections} conn, ` +
      `${count} POSTs at 1 conn, ${count} POSTs at ${connections} conn; clock tick ${fmt(TICK_MS, 1)} ms`,
  );
  const mains = [['this build', EMBEDDED_MAIN]];
  // `path` or `label=path,label=path`: earlier builds, run first in each round.
  const baselines = (process.env.BENCH_POST_BASELINE ?? '').split(',').filter(Boolean);
  mains.unshift(
    ...baselines.map((entry, i) => {
      const at = entry.indexOf('=');
      return at === -1
        ? [`baseline${baselines.length > 1 ? ` ${i + 1}` : ''}`, resolve(entry)]
        : [entry.slice(0, at), resolve(entry.slice(at + 1))];
    }),
  );
  try {
    const suites = [];
    // This build again on the SQLite engine (the engine issue 27 offers in place of the embedded one).
    if (process.env.BENCH_POST_SQLITE === '1') {
      mains.push([
        'this build, sqlite',
        EMBEDDED_MAIN,
        {
          STORE_URL: `sqlite://${tempDir('bench-post-cpu-sqlite-')}`,
          // A production store needs the secrets a deployment sets (identity refuses to start without).
          JWT_SECRET: `bench-${'x'.repeat(40)}`,
          ADMIN_PASSWORD: 'admin',
        },
      ]);
    }
    for (const [label, main, env] of mains) suites.push(await startSuite(label, main, env));
    for (const suite of suites) {
      await gets(suite, connections, 2);
      await posts(suite, connections, warmup);
      suite.idle = await idleRate(suite);
      log(`${suite.label} (${suite.main}, pid ${suite.handle.pid}): idle ${fmt(suite.idle, 2)} ms CPU per s`);
    }
    for (let round = 1; round <= rounds; round++) {
      const parts = [];
      // Every other round in the reverse order, so that a load that rises or falls during a round favours no build.
      for (const suite of round % 2 === 0 ? [...suites].reverse() : suites) {
        if (suite.handle.exited()) throw new Error(`${suite.handle.name} died\n${suite.handle.describe()}`);
        const get = await gets(suite, connections, duration);
        const one = await posts(suite, 1, count);
        const many = await posts(suite, connections, count);
        suite.rounds.push({ get, one, many });
        parts.push(
          `${suite.label}: GET p50 ${fmt(get.p50, 2)} ms, POST CPU ${fmt(one.cpuPerPost, 2)} / ${fmt(many.cpuPerPost, 2)} ms, ` +
            `POST p50 ${fmt(one.p50, 2)} / ${fmt(many.p50, 2)} ms`,
        );
      }
      log(`round ${round}/${rounds} (${machineState().split('loadavg ')[1].split(',')[0]}): ${parts.join('; ')}`);
    }
    const rows = [];
    for (const suite of suites) {
      const get = medianBy(suite.rounds, (r) => r.get.p50).get;
      const one = medianBy(suite.rounds, (r) => r.one.cpuPerPost).one;
      const many = medianBy(suite.rounds, (r) => r.many.cpuPerPost).many;
      const manyP50 = medianBy(suite.rounds, (r) => r.many.p50).many.p50;
      const bad = suite.rounds.reduce((sum, r) => sum + r.get.bad + r.one.bad + r.many.bad, 0);
      suite.verdict = { get, one, many, manyP50 };
      rows.push(
        [suite.label, 'GET (anon, uncached)', connections, fmt(get.rps), fmt(get.p50, 2), '-', '-', bad],
        [
          suite.label,
          'POST',
          1,
          fmt(one.created / one.wallS),
          fmt(one.p50, 2),
          fmt(one.p99, 2),
          fmt(one.cpuPerPost, 2),
          '',
        ],
        [
          suite.label,
          'POST',
          connections,
          fmt(many.created / many.wallS),
          fmt(manyP50, 2),
          fmt(many.p99, 2),
          fmt(many.cpuPerPost, 2),
          '',
        ],
      );
    }
    log(table(['build', 'request', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/POST', 'bad'], rows));
    log('(medians of the rounds; CPU per POST includes the background work the POSTs cause in the same process)');
    for (const suite of suites) {
      const { get, many, manyP50 } = suite.verdict;
      const prefix = suites.length > 1 ? `${suite.label}: ` : '';
      log(
        `${prefix}issue 27 target 3: POST CPU <= ${CPU_TARGET_MS} ms: ${many.cpuPerPost <= CPU_TARGET_MS ? 'PASS' : 'MISS'} ` +
          `(${fmt(many.cpuPerPost, 2)} ms at ${connections} conn)`,
      );
      const ratio = manyP50 / get.p50;
      log(
        `${prefix}issue 27 target 3: POST p50 <= ${P50_RATIO_TARGET} x GET p50: ${ratio <= P50_RATIO_TARGET ? 'PASS' : 'MISS'} ` +
          `(${fmt(manyP50, 2)} ms against ${fmt(get.p50, 2)} ms: ${fmt(ratio, 2)} x)`,
      );
    }
    log(`post-cpu at end: ${machineState()}`);
  } finally {
    await stopAll();
  }
}
