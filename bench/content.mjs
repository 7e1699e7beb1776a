// The content part of `npm run bench` (`node bench/run.mjs content` alone): the
// content service on generated trees of 1,000 and 100,000 objects
// (bench/generate-tree.mjs, cached under bench/.data/), all through the real
// gateway as admin with Basic auth:
//
//   get      GET of a Document four levels down
//   listing  GET of the folder of 1,000 Documents with b_size=25
//   expand   GET of the Document with ?expand=breadcrumbs,navigation,actions,types,workflow
//   post     POST of a Document at BENCH_CONNECTIONS connections, into a new Folder under /scratch
//            per run (warm-up or round), so no folder grows beyond one run's POSTs
//   post1    the same at 1 connection: the latency of one write without queueing behind others
//
// One embedded suite per tree, each on a fresh copy of the cached data, both
// up at once. The GET phase comes first, on the unchanged trees; the POST
// phase after it, since every POST adds an object to the tree (the count is
// printed). Within a phase rounds are interleaved (each round runs every
// tree x scenario once) and the median round by req/s is reported. p50/p99 are
// exact, from every 2xx response's own latency (autocannon's histogram holds
// whole milliseconds). Env as bench/run.mjs, plus BENCH_CONTENT_SIZES
// (default "1000,100000").
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { ensureTree } from './generate-tree.mjs';
import {
  ADMIN_AUTH,
  copyDir,
  cpuSnapshot,
  fmt,
  foreignCores,
  loadWithLatencies,
  log,
  machineState,
  median,
  quantile,
  request,
  rssMb,
  sleep,
  startEmbedded,
  table,
} from './lib.mjs';

export const EXPAND = ['breadcrumbs', 'navigation', 'actions', 'types', 'workflow'];
/** GET of a Document at 100,000 objects against 1,000: p50 at most this many times. */
const SCALE_TARGET = 1.5;
const POST_P50_TARGET_MS = 10;
/** Expanded GET req/s against the plain GET's. */
const EXPAND_TARGET = 0.5;
const NOISY_CORES = 0.25;
const STARTUP_TIMEOUT_MS = 10 * 60_000;
export const HEADERS = { Authorization: ADMIN_AUTH, Accept: 'application/json' };

function sizesFromEnv() {
  const raw = process.env.BENCH_CONTENT_SIZES ?? '1000,100000';
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_CONTENT_SIZES: bad list "${raw}"`);
  return sizes;
}

const label = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

/** The busiest processes right now: top's second sample (its first averages over each process's lifetime). */
function busiest(count = 6) {
  try {
    const out = execFileSync('top', ['-b', '-n', '2', '-d', '1', '-o', '%CPU', '-w', '160'], { encoding: 'utf8' });
    const last = out.slice(out.lastIndexOf('top - '));
    const lines = last.split('\n');
    const header = lines.findIndex((line) => /^\s*PID\s/.test(line));
    return lines
      .slice(header, header + 1 + count)
      .map((line) => `  ${line}`)
      .join('\n');
  } catch {
    return '  (top unavailable)';
  }
}

function json(bytes) {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Which of the asked components came back expanded (more than the `{@id}` link). */
function expandedComponents(body) {
  const components = body?.['@components'] ?? {};
  const state = {};
  for (const name of EXPAND) {
    const value = components[name];
    state[name] =
      value === undefined
        ? 'missing'
        : value && typeof value === 'object' && Object.keys(value).some((k) => k !== '@id')
          ? 'expanded'
          : 'link only';
  }
  return state;
}

/** Starts the suite on a copy of the cached tree (with `nodeArgs` and `env` if given), timing the start and taking its memory. */
export async function startTree(n, nodeArgs, env) {
  const tree = await ensureTree(n, log);
  const dataDir = copyDir(tree.dataDir, `cms-bench-tree-${n}-`);
  const started = Date.now();
  const server = await startEmbedded(`content N=${n}`, {
    dataDir,
    workers: 0,
    readyTimeoutMs: STARTUP_TIMEOUT_MS,
    nodeArgs,
    env,
  });
  const startup = (Date.now() - started) / 1000;
  const rss = rssMb(server.pid);
  log(
    `tree N=${n}: ${tree.manifest.counts.total} objects, ${fmt(tree.manifest.data_bytes / 1e6, 1)} MB of data; ` +
      `suite ready in ${fmt(startup, 1)} s, ${fmt(rss)} MB resident after start`,
  );
  return { n, tree, server, startup, rssAtStart: rss, manifest: tree.manifest };
}

/** The scenarios against a suite at `base` serving a generated tree (`paths` from its manifest). */
export function scenarioList(base, paths, connections) {
  const { document, listing, scratch } = paths;
  const tag = randomBytes(3).toString('hex');
  let counter = 0;
  // Titles make unique ids (cms.namefromtitle), so no POST tries taken ids first.
  const postRequest = {
    method: 'POST',
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ '@type': 'Document', title: `Bench ${tag} ${++counter}` }),
    }),
  };
  const postHeaders = { ...HEADERS, 'Content-Type': 'application/json' };
  let runs = 0;
  /** A new Folder under /scratch for the next run to create into; made before the run's clock starts. */
  const freshFolder = async () => {
    const response = await request(`${base}${scratch}`, {
      method: 'POST',
      headers: HEADERS,
      body: { '@type': 'Folder', title: `Run ${tag} ${++runs}` },
    });
    const location = response.headers.get('location');
    if (response.status !== 201 || !location) {
      throw new Error(`POST ${scratch} (Folder) answered ${response.status}: ${response.bytes.toString('utf8')}`);
    }
    return `${base}${new URL(location).pathname}`;
  };
  return [
    { key: 'get', name: 'GET Document', phase: 'get', url: `${base}${document}` },
    { key: 'listing', name: `GET ${listing}?b_size=25`, phase: 'get', url: `${base}${listing}?b_size=25` },
    {
      key: 'expand',
      name: 'GET Document ?expand=5',
      phase: 'get',
      url: `${base}${document}?expand=${EXPAND.join(',')}`,
    },
    {
      key: 'post',
      name: `POST Document, ${connections} conn`,
      phase: 'post',
      prepare: freshFolder,
      options: { headers: postHeaders, requests: [postRequest] },
    },
    {
      key: 'post1',
      name: 'POST Document, 1 conn',
      phase: 'post',
      prepare: freshFolder,
      connections: 1,
      options: { headers: postHeaders, requests: [postRequest] },
    },
  ];
}

/** The scenarios of one tree, each checked once before any load. */
async function scenariosFor(t, settings) {
  const base = t.server.baseUrl;
  const { document, listing } = t.manifest.paths;
  const all = scenarioList(base, t.manifest.paths, settings.connections);
  const plain = await request(`${base}${document}`, { headers: HEADERS });
  const plainBody = json(plain.bytes);
  if (plain.status !== 200 || plainBody?.['@id'] === undefined) {
    throw new Error(
      `N=${t.n}: GET ${document} answered ${plain.status}: ${plain.bytes.toString('utf8').slice(0, 300)}`,
    );
  }
  t.documentBytes = plain.bytes.length;
  const list = await request(`${base}${listing}?b_size=25`, { headers: HEADERS });
  const listBody = json(list.bytes);
  if (list.status !== 200 || listBody?.items?.length !== 25 || listBody?.items_total !== 1000) {
    throw new Error(
      `N=${t.n}: GET ${listing}?b_size=25 answered ${list.status} with ${listBody?.items?.length} items of ` +
        `${listBody?.items_total}; expected 25 of 1000`,
    );
  }
  t.listingBytes = list.bytes.length;
  const expanded = await request(`${base}${document}?expand=${EXPAND.join(',')}`, { headers: HEADERS });
  t.expandStatus = expanded.status;
  t.expandBytes = expanded.bytes.length;
  t.expandText = expanded.bytes.toString('utf8').slice(0, 300);
  t.expansion = expanded.status === 200 ? expandedComponents(json(expanded.bytes)) : null;
  // No POST before the load: it would change the tree the GET phase measures.
  return all.filter((s) => s.key !== 'expand' || expanded.status === 200);
}

async function measure(t, scenario, settings, duration) {
  if (t.server.exited()) throw new Error(`${t.server.name} died during the run\n${t.server.describe()}`);
  const url = scenario.prepare ? await scenario.prepare() : scenario.url;
  const before = cpuSnapshot();
  const result = await loadWithLatencies(url, {
    connections: scenario.connections ?? settings.connections,
    duration,
    headers: HEADERS,
    ...scenario.options,
  });
  return {
    rps: result.requests.average,
    p50: quantile(result.latencies, 0.5),
    p99: quantile(result.latencies, 0.99),
    max: result.latencies.at(-1),
    total: result.requests.total,
    ok: result.latencies.length,
    bad: result.non2xx + result.errors + result.timeouts,
    foreign: foreignCores(before, cpuSnapshot(), os.availableParallelism()),
  };
}

/** Warm-up, then interleaved rounds over every (tree, scenario) of the phase; keeps every round. */
async function runPhase(phase, runs, settings) {
  for (const run of runs) run.warm = await measure(run.tree, run.scenario, settings, settings.warmup);
  for (let round = 1; round <= settings.rounds; round++) {
    const parts = [];
    for (const run of runs) {
      const result = await measure(run.tree, run.scenario, settings, settings.duration);
      run.rounds.push(result);
      parts.push(
        `${label(run.tree.n)} ${run.scenario.key} ${fmt(result.rps)}${result.bad ? ` (${result.bad} bad)` : ''}` +
          (Number.isFinite(result.foreign) ? ` [others ${fmt(result.foreign, 2)}]` : ''),
      );
      await sleep(300);
    }
    log(`${phase} round ${round}/${settings.rounds} (req/s): ${parts.join(', ')}`);
  }
  for (const run of runs) {
    const mid = median(run.rounds.map((r) => r.rps));
    run.result = run.rounds.find((r) => r.rps === mid);
  }
}

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

export async function runContent(settings) {
  const started = Date.now();
  const sizes = sizesFromEnv();
  log('Content benchmark (npm run bench -- content)');
  log(`machine at start: ${machineState()}`);
  log(`busiest processes at start:\n${busiest()}`);
  log(
    `settings: ${settings.connections} connections (POST also at 1), warm-up ${settings.warmup} s per scenario, ` +
      `${settings.rounds} interleaved rounds of ${settings.duration} s, median round by req/s; every request as admin (Basic)`,
  );
  const trees = [];
  for (const n of sizes) trees.push(await startTree(n));
  const runs = [];
  for (const t of trees) {
    const scenarios = await scenariosFor(t, settings);
    for (const scenario of scenarios) runs.push({ tree: t, scenario, rounds: [] });
    const expansion = t.expansion
      ? Object.entries(t.expansion)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')
      : `answered ${t.expandStatus}: ${t.expandText}`;
    log(
      `N=${t.n}: Document ${t.documentBytes} bytes at ${t.manifest.paths.document}, listing page ${t.listingBytes} bytes, ` +
        `expanded GET ${t.expandBytes} bytes (${expansion})`,
    );
  }
  log();
  await runPhase(
    'GET',
    runs.filter((r) => r.scenario.phase === 'get'),
    settings,
  );
  await runPhase(
    'POST',
    runs.filter((r) => r.scenario.phase === 'post'),
    settings,
  );
  for (const t of trees) {
    t.rssAtEnd = rssMb(t.server.pid);
    const posts = runs.filter((r) => r.tree === t && r.scenario.phase === 'post');
    t.created = posts.reduce((sum, r) => sum + r.warm.ok + r.rounds.reduce((n, x) => n + x.ok, 0), 0);
    t.folders = posts.reduce((sum, r) => sum + 1 + r.rounds.length, 0);
  }

  log();
  log(
    table(
      ['N', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'rounds req/s', 'non-2xx/err'],
      runs.map((r) => [
        label(r.tree.n),
        r.scenario.name,
        fmt(r.result.rps),
        fmt(r.result.p50, 2),
        fmt(r.result.p99, 2),
        fmt(r.result.max, 1),
        r.rounds.map((x) => fmt(x.rps)).join(' / '),
        r.rounds.reduce((sum, x) => sum + x.bad, 0),
      ]),
    ),
  );
  log('(p50/p99/max: exact latencies of the 2xx responses of the median round, measured in this process)');
  log();

  const find = (n, key) => runs.find((r) => r.tree.n === n && r.scenario.key === key)?.result;
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  if (small !== large) {
    const a = find(small, 'get');
    const b = find(large, 'get');
    const ratio = b.p50 / a.p50;
    log(
      `target: GET Document p50 at N=${label(large)} <= ${SCALE_TARGET} x p50 at N=${label(small)}: ` +
        `${verdict(ratio <= SCALE_TARGET)} (${fmt(b.p50, 2)} ms vs ${fmt(a.p50, 2)} ms, ${fmt(ratio, 2)}x)`,
    );
  } else {
    log(`target: GET Document p50 across tree sizes: n/a (only N=${small} was run)`);
  }
  for (const t of trees) {
    const post = find(t.n, 'post');
    const post1 = find(t.n, 'post1');
    log(
      `target: POST p50 < ${POST_P50_TARGET_MS} ms at N=${label(t.n)}: ` +
        `${settings.connections} connections ${verdict(post.p50 < POST_P50_TARGET_MS)} (${fmt(post.p50, 2)} ms at ${fmt(post.rps)} req/s), ` +
        `1 connection ${verdict(post1.p50 < POST_P50_TARGET_MS)} (${fmt(post1.p50, 2)} ms)`,
    );
  }
  for (const t of trees) {
    const plain = find(t.n, 'get');
    const expanded = find(t.n, 'expand');
    const missing = t.expansion ? EXPAND.filter((name) => t.expansion[name] !== 'expanded') : EXPAND;
    if (!expanded) {
      log(
        `target: expanded GET >= ${EXPAND_TARGET} x plain GET req/s at N=${label(t.n)}: FAIL (answered ${t.expandStatus})`,
      );
      continue;
    }
    const ratio = expanded.rps / plain.rps;
    const status =
      missing.length > 0
        ? `NOT MEASURED (not expanded yet: ${missing.join(', ')}; ratio of what was served ${fmt(ratio, 2)})`
        : `${verdict(ratio >= EXPAND_TARGET)} (${fmt(expanded.rps)} vs ${fmt(plain.rps)} req/s, ${fmt(ratio, 2)})`;
    log(`target: expanded GET >= ${EXPAND_TARGET} x plain GET req/s at N=${label(t.n)}: ${status}`);
  }
  log();
  for (const t of trees) {
    log(
      `N=${label(t.n)}: suite start ${fmt(t.startup, 1)} s; resident ${fmt(t.rssAtStart)} MB after start, ${fmt(t.rssAtEnd)} MB at end; ` +
        `the POST phase added ${t.created} Documents in ${t.folders} Folders under ${t.manifest.paths.scratch}; ` +
        `tree generated in ${t.manifest.seconds.total} s (${t.manifest.workers} suite${t.manifest.workers > 1 ? 's' : ''} in parallel)`,
    );
  }
  const bad = runs.reduce((sum, r) => sum + r.rounds.reduce((n, x) => n + x.bad, 0), 0);
  if (bad > 0) log(`warning: ${bad} non-2xx responses, errors or timeouts during measured rounds; numbers are suspect`);
  const measured = runs.flatMap((r) => r.rounds.map((x) => x.foreign)).filter(Number.isFinite);
  if (measured.length > 0) {
    const noisy = measured.filter((c) => c > NOISY_CORES).length;
    log(
      `other processes' CPU during measured runs: up to ${fmt(Math.max(...measured), 2)} of ${os.availableParallelism()} cores` +
        (noisy === 0
          ? ` (every run under ${NOISY_CORES}: quiet enough)`
          : `; over ${NOISY_CORES} in ${noisy} of ${measured.length} runs: not a quiet machine, rerun when idle`),
    );
  }
  log(`machine at end:   ${machineState()}`);
  log(`busiest processes at end:\n${busiest()}`);
  log(`content part ${fmt((Date.now() - started) / 1000, 1)} s`);
  for (const t of trees) await t.server.stop(30_000);
}
