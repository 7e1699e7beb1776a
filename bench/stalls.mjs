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
//
// BENCH_STALLS_TOPOLOGY=split (with BENCH_STALLS_ENGINE=sqlite) serves the same stamped tree as it is deployed: each
// service and the gateway a process of its own on RabbitMQ (a virtual host of the run's own), every process
// probed; each window reports the longest stretch of any of them and names the process. The prom-client column is
// then left out (each process has its own).
import { cpSync } from 'node:fs';
import { startTree } from './content.mjs';
import { makeVhost, startSplitSuite } from './searchable.mjs';
import { ensureStampedTree, startStampedTree } from './stamp-tree.mjs';
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
  tempDir,
} from './lib.mjs';

const TARGET_MS = 50;
const HEADERS = { Authorization: ADMIN_AUTH, Accept: 'application/json' };
/** The embedded suite (one process) on the tree of `n` on `engine`, its loop probed. */
async function startOneProcess(n, engine) {
  const loopCpu = loopCpuProbe();
  const t =
    engine === 'embedded'
      ? await startTree(n, loopCpu.nodeArgs, loopCpu.env)
      : await startStampedTree(n, engine, { nodeArgs: loopCpu.nodeArgs, env: loopCpu.env });
  return {
    base: t.server.baseUrl,
    manifest: t.manifest,
    processes: [{ name: 'suite', pid: t.server.pid, probe: loopCpu }],
    dispose: () => {},
  };
}

/** Each service and the gateway in a process of its own on a copy of the stamped SQLite tree of `n`, each probed. */
async function startSplit(n) {
  const stamped = await ensureStampedTree(n, 'sqlite', log);
  const storeDir = tempDir(`bench-stalls-split-${n}-`);
  cpSync(stamped.storeDir, storeDir, { recursive: true });
  const vhost = makeVhost();
  const probes = new Map();
  const probeOf = (name) => {
    if (!probes.has(name)) probes.set(name, loopCpuProbe());
    return probes.get(name);
  };
  try {
    const suite = await startSplitSuite(vhost.url, {
      storeUrl: `sqlite://${storeDir}`,
      nodeArgs: probeOf('gateway').nodeArgs,
      envOf: (name) => probeOf(name).env,
    });
    const processes = suite.handles.map((handle) => {
      const name = handle.name.replace(/^searchable-/, '');
      return { name, pid: handle.child.pid, probe: probeOf(name) };
    });
    log(`split suite on the stamped tree N=${n}: ${processes.map((p) => p.name).join(', ')}`);
    return { base: suite.baseUrl, manifest: stamped.manifest, processes, dispose: vhost.dispose };
  } catch (error) {
    vhost.dispose();
    throw error;
  }
}

/** The longest stretch of any of the processes since the last call, and which process had it. */
async function longestOf(processes) {
  let worst;
  for (const { name, pid, probe } of processes) {
    const stretch = await probe.longest(pid);
    if (!worst || stretch.cpuMs > worst.cpuMs) worst = { ...stretch, name };
  }
  return worst;
}

export async function runStalls(settings) {
  const n = Math.round(numberEnv('BENCH_STALLS_SIZE', 100000));
  const engine = process.env.BENCH_STALLS_ENGINE ?? 'embedded';
  const split = process.env.BENCH_STALLS_TOPOLOGY === 'split';
  if (split && engine !== 'sqlite') throw new Error('BENCH_STALLS_TOPOLOGY=split serves the stamped SQLite tree only');
  log(`stalls (issue 27, target 6${split ? ', every service a process of its own' : ''}): ${machineState()}`);
  let served;
  try {
    served = split ? await startSplit(n) : await startOneProcess(n, engine);
    const base = served.base;
    const { document, listing, scratch } = served.manifest.paths;
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
    await longestOf(served.processes);
    if (!split) await loopDelay(base); // resets the gauges
    const rows = [];
    let worst = 0;
    for (let round = 1; round <= settings.rounds; round++) {
      const result = await loadWithLatencies(base, { ...mixed, duration: settings.duration });
      const stretch = await longestOf(served.processes);
      const lag = split ? undefined : (await loopDelay(base)).max;
      const bad = result.errors + result.timeouts + result['4xx'] + result['5xx'];
      worst = Math.max(worst, stretch.cpuMs);
      const rss = served.processes.reduce((sum, { pid }) => sum + rssMb(pid), 0);
      rows.push([
        String(round),
        fmt(result.requests.average),
        String(bad),
        split ? `${fmt(stretch.cpuMs, 1)} (${stretch.name})` : fmt(stretch.cpuMs, 1),
        fmt(stretch.wallMs, 1),
        lag === undefined ? '-' : fmt(lag, 1),
        fmt(rss),
      ]);
      log(`window ${round}/${settings.rounds}: ${machineState()}`);
    }
    const rssHeading = split ? 'RSS MB (all)' : 'RSS MB';
    log(table(['window', 'req/s', 'bad', 'longest stretch CPU ms', 'wall ms', 'prom lag max ms', rssHeading], rows));
    const where = split ? `${engine}, every service a process of its own` : engine;
    log(
      `issue 27 target 6 (${where}): no event-loop stretch over ${TARGET_MS} ms of CPU during the mixed load at ${n} objects: ` +
        `${worst <= TARGET_MS ? 'PASS' : 'MISS'} (${fmt(worst, 1)} ms)`,
    );
    log(`stalls at end: ${machineState()}`);
  } finally {
    await stopAll();
    served?.dispose();
  }
}
