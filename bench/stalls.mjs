// `node bench/run.mjs stalls` (issue 27, target 6): the longest event-loop stall of the serving process during a
// mixed load on the generated tree of 100,000 objects (bench/generate-tree.mjs, cached; BENCH_STALLS_SIZE to change
// it). With BENCH_STALLS_ENGINE=sqlite, the tree of that size written through the store port on SQLite
// (bench/stamp-tree.mjs) instead. The embedded suite (GATEWAY_WORKERS=0: the gateway and every service in one
// process) on a copy of the tree, with bench/loop-cpu.mjs loaded into it.
//
// Load: BENCH_CONNECTIONS connections, each sending over and over, as admin with Basic: a GET of the tree's target
// Document, a 25-item page of its 1,000-item folder, the Document with five components expanded, a `@search` by
// a word of a few matches and one matching most of the tree, and, one request in twenty, a POST of a Document
// into a Folder of its own (about 5% writes). BENCH_ROUNDS windows of BENCH_DURATION s each, after BENCH_WARMUP s.
//
// Per window: the longest stretch between two 1 ms timer turns, as wall time and as the process's CPU time in it
// (bench/loop-cpu.mjs: on a machine other work loads, the wall time includes waiting for a core, so the verdict is
// on the CPU time; it is an upper bound, the GC's helper threads count too), and prom-client's
// `nodejs_eventloop_lag_max_seconds` for comparison. Target: no stretch over 50 ms of CPU.
import { startTree } from './content.mjs';
import { startStampedTree } from './stamp-tree.mjs';
import {
  ADMIN_AUTH,
  fmt,
  loadWithLatencies,
  log,
  loopCpuProbe,
  loopDelay,
  machineState,
  numberEnv,
  request,
  rssMb,
  stopAll,
  table,
} from './lib.mjs';

const TARGET_MS = 50;
const HEADERS = { Authorization: ADMIN_AUTH, Accept: 'application/json' };
export async function runStalls(settings) {
  const n = Math.round(numberEnv('BENCH_STALLS_SIZE', 100000));
  const engine = process.env.BENCH_STALLS_ENGINE ?? 'embedded';
  log(`stalls (issue 27, target 6): ${machineState()}`);
  const loopCpu = loopCpuProbe();
  try {
    const t =
      engine === 'embedded'
        ? await startTree(n, loopCpu.nodeArgs, loopCpu.env)
        : await startStampedTree(n, engine, { nodeArgs: loopCpu.nodeArgs, env: loopCpu.env });
    const base = t.server.baseUrl;
    const { document, listing, scratch } = t.manifest.paths;
    const folder = await request(`${base}${scratch}`, {
      method: 'POST',
      headers: HEADERS,
      body: { '@type': 'Folder', title: `Stalls ${Date.now()}` },
    });
    if (folder.status !== 201) throw new Error(`POST ${scratch} (Folder) answered ${folder.status}`);
    const into = new URL(folder.headers.get('location')).pathname;
    let counter = 0;
    const read = (path) => ({ method: 'GET', path, headers: HEADERS });
    const reads = [
      read(document),
      read(`${listing}?b_size=25`),
      read(`${document}?expand=breadcrumbs,navigation,actions,types,workflow`),
      read('/@search?SearchableText=item'),
      read('/@search?SearchableText=document&b_size=25'),
    ];
    const post = {
      method: 'POST',
      path: into,
      headers: { ...HEADERS, 'Content-Type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ '@type': 'Document', title: `Stall ${++counter}` }) }),
    };
    // 19 reads (the five in turn) and one POST.
    const requests = [...Array.from({ length: 19 }, (_, i) => reads[i % reads.length]), post];
    const mixed = { connections: settings.connections, requests };

    await loadWithLatencies(base, { ...mixed, duration: settings.warmup });
    await loopCpu.longest(t.server.pid);
    await loopDelay(base); // resets the gauges
    const rows = [];
    let worst = 0;
    for (let round = 1; round <= settings.rounds; round++) {
      const result = await loadWithLatencies(base, { ...mixed, duration: settings.duration });
      const stretch = await loopCpu.longest(t.server.pid);
      const lag = (await loopDelay(base)).max;
      const bad = result.errors + result.timeouts + result['4xx'] + result['5xx'];
      worst = Math.max(worst, stretch.cpuMs);
      rows.push([
        String(round),
        fmt(result.requests.average),
        String(bad),
        fmt(stretch.cpuMs, 1),
        fmt(stretch.wallMs, 1),
        fmt(lag, 1),
        fmt(rssMb(t.server.pid)),
      ]);
      log(`window ${round}/${settings.rounds}: ${machineState()}`);
    }
    log(table(['window', 'req/s', 'bad', 'longest stretch CPU ms', 'wall ms', 'prom lag max ms', 'RSS MB'], rows));
    log(
      `issue 27 target 6 (${engine}): no event-loop stretch over ${TARGET_MS} ms of CPU during the mixed load at ${n} objects: ` +
        `${worst <= TARGET_MS ? 'PASS' : 'MISS'} (${fmt(worst, 1)} ms)`,
    );
    log(`stalls at end: ${machineState()}`);
  } finally {
    await stopAll();
  }
}
