// `node bench/profile.mjs [real|echo|both]`: where the CPU goes under load.
// Starts the embedded suite (GATEWAY_WORKERS=0, LOG_LEVEL=warn) and/or the
// echo floor under `node --cpu-prof`, seeds the same Document as bench/run.mjs,
// drives anonymous GETs with autocannon (10 connections, BENCH_PROFILE_DURATION
// s, default 10, after a 2 s warm-up), stops the server gracefully so the
// profile is written, and prints the top self-time functions, self time by
// package, and inclusive time of this project's own functions.
// `node bench/profile.mjs summarise <file.cpuprofile>` only summarises.
// `node bench/profile.mjs content <get|listing|expand|post|post1> [N]` profiles one
// scenario of bench/content.mjs on a copy of the generated N-object tree (default 100000).
// `node bench/profile.mjs post`: POSTs of Documents with distinct ids into the seeded Folder as admin (Basic), 10
// connections, on a fresh embedded suite (issue 27, target 3: what a write costs).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HEADERS, scenarioList, startTree } from './content.mjs';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  FOLDER_ID,
  SEARCH_TEXT_PATH,
  PUBLIC_URL,
  ROOT,
  copyDir,
  load,
  loadWithLatencies,
  loginToken,
  quantile,
  request,
  seedDocument,
  sleep,
  startChild,
  startEmbedded,
  stopAll,
  tempDir,
  waitForPortLine,
} from './lib.mjs';

const DURATION = Number(process.env.BENCH_PROFILE_DURATION ?? 10);
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 25);

function where(callFrame) {
  const url = callFrame.url.replace(/^file:\/\//, '');
  if (!url) return '';
  return url.startsWith(ROOT) ? relative(ROOT, url) : url;
}

/** node_modules package, `node:internal`, project package, or a V8 pseudo-frame. */
function packageOf(callFrame) {
  const url = where(callFrame);
  if (!url) return `(${callFrame.functionName || 'native'})`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url.startsWith('node:internal/') ? `node:${url.split('/')[1]}` : url;
  const project = /^(services\/[^/]+|gateway|bench)\//.exec(url);
  return project ? `[project] ${project[1]}` : url;
}

const label = (callFrame) =>
  `${callFrame.functionName || '(anonymous)'}  ${where(callFrame)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;

/**
 * The samples of the load phase: the longest run of 100 ms windows that are
 * more than half busy (start-up, seeding and shutdown fall outside it).
 */
function loadWindow(profile) {
  let t = profile.startTime;
  const times = profile.timeDeltas.map((dt) => (t += dt));
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const windows = new Map();
  profile.samples.forEach((id, i) => {
    const w = Math.floor((times[i] - profile.startTime) / 100_000);
    const entry = windows.get(w) ?? { busy: 0, all: 0 };
    const dt = profile.timeDeltas[i + 1] ?? 0;
    entry.all += dt;
    if (!idleIds.has(id)) entry.busy += dt;
    windows.set(w, entry);
  });
  const last = Math.max(...windows.keys());
  let best = [0, -1];
  let start = null;
  for (let w = 0; w <= last + 1; w++) {
    const e = windows.get(w);
    const busy = e && e.all > 0 && e.busy / e.all > 0.5;
    if (busy && start === null) start = w;
    if (!busy && start !== null) {
      if (w - start > best[1] - best[0] + 1) best = [start, w - 1];
      start = null;
    }
  }
  const from = profile.startTime + best[0] * 100_000;
  const to = profile.startTime + (best[1] + 1) * 100_000;
  return { keep: (i) => times[i] >= from && times[i] < to, seconds: (to - from) / 1e6 };
}

/** Self time by function and package, and inclusive time of project functions, over the load phase. */
function analyse(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const window = loadWindow(profile);
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    if (!window.keep(i)) return;
    // timeDeltas[i + 1] is the time until the next sample: the time this sample stands for.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id);
    total += dt;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg = packageOf(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (!where(frame).match(/^(services|gateway|bench)\//)) continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  });
  return { file, window, self, inclusive, packages, total, idle, busy: total - idle };
}

const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);

function summarise(file, requests) {
  const a = analyse(file);
  const pct = (v) => `${((v / a.busy) * 100).toFixed(1).padStart(5)}%`;
  const per = (v) =>
    requests ? `${(v / requests).toFixed(1).padStart(6)} us/req` : `${(v / 1e3).toFixed(0).padStart(6)} ms`;
  const lines = [];
  lines.push(
    `profile ${file}: load phase ${a.window.seconds.toFixed(1)} s, ${(a.busy / 1e6).toFixed(1)} s busy` +
      (requests ? `, ${requests} requests, ${(a.busy / requests).toFixed(0)} us CPU per request` : '') +
      '; percentages are of the busy time',
  );
  lines.push(`top ${TOP} functions by self time:`);
  for (const [name, v] of top(a.self, TOP)) lines.push(`  ${pct(v)}  ${per(v)}  ${name}`);
  lines.push('self time by package:');
  for (const [name, v] of top(a.packages, 20)) lines.push(`  ${pct(v)}  ${per(v)}  ${name}`);
  lines.push("inclusive time of the project's own functions (synchronous stacks only; awaits cut them):");
  for (const [name, v] of top(a.inclusive, 15)) lines.push(`  ${pct(v)}  ${per(v)}  ${name}`);
  return { text: lines.join('\n'), analysis: a };
}

/** Per-request CPU by package, real minus echo: where the real path's extra time goes. */
function compare(real, realRequests, echo, echoRequests) {
  const names = new Set([...real.packages.keys(), ...echo.packages.keys()]);
  const rows = [...names].map((name) => {
    const r = (real.packages.get(name) ?? 0) / realRequests;
    const e = (echo.packages.get(name) ?? 0) / echoRequests;
    return [name, r, e, r - e];
  });
  rows.sort((x, y) => y[3] - x[3]);
  const realPer = real.busy / realRequests;
  const echoPer = echo.busy / echoRequests;
  const lines = [
    `CPU per request: real ${realPer.toFixed(0)} us, echo ${echoPer.toFixed(0)} us, extra ${(realPer - echoPer).toFixed(0)} us; ` +
      'largest per-package differences (us/req real, echo, extra):',
  ];
  for (const [name, r, e, d] of rows.slice(0, 15)) {
    lines.push(`  ${d.toFixed(1).padStart(7)}  (${r.toFixed(1).padStart(6)} vs ${e.toFixed(1).padStart(6)})  ${name}`);
  }
  return lines.join('\n');
}

function newestProfile(dir) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile written in ${dir}`);
  return join(dir, files.sort().at(-1));
}

/** Resolves with the requests served in the load phase (warm-up and measured run, back to back). */
async function drive(name, url, headers) {
  // A gap after start-up, so the load phase found in the profile does not include it.
  await sleep(1500);
  const warm = await load(url, { connections: 10, duration: 2, headers });
  const result = await load(url, { connections: 10, duration: DURATION, headers });
  process.stdout.write(
    `${name} under --cpu-prof: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `${result.non2xx + result.errors + result.timeouts} bad\n`,
  );
  return warm.requests.total + result.requests.total;
}

/**
 * What the real server is driven with (BENCH_PROFILE_AS): `cached` anonymous GET (from the gateway cache),
 * `uncached` anonymous, `basic` or `bearer` as admin, or `search` by text; all but `cached` skip the gateway cache.
 */
async function requestAs(as, baseUrl) {
  const noCache = { 'Cache-Control': 'no-cache' };
  switch (as) {
    case 'cached':
      return { path: DOCUMENT_PATH, headers: undefined };
    case 'uncached':
      return { path: DOCUMENT_PATH, headers: noCache };
    case 'basic':
      return { path: DOCUMENT_PATH, headers: { ...noCache, Authorization: ADMIN_AUTH } };
    case 'bearer':
      return { path: DOCUMENT_PATH, headers: { ...noCache, Authorization: `Bearer ${await loginToken(baseUrl)}` } };
    case 'search':
      return { path: SEARCH_TEXT_PATH, headers: noCache };
    default:
      throw new Error(`BENCH_PROFILE_AS=${as}: expected cached, uncached, basic, bearer or search`);
  }
}

async function profileReal() {
  const seedDir = tempDir('cms-profile-seed-');
  const seeder = await startEmbedded('real (seeding)', { dataDir: seedDir, workers: 0 });
  const payload = await seedDocument(seeder.baseUrl);
  await seeder.stop();
  const profDir = tempDir('cms-profile-real-');
  const real = await startEmbedded('real', {
    dataDir: copyDir(seedDir, 'cms-profile-data-'),
    workers: 0,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
  });
  const as = process.env.BENCH_PROFILE_AS ?? 'cached';
  const { path, headers } = await requestAs(as, real.baseUrl);
  const requests = await drive(`real (embedded, GATEWAY_WORKERS=0, ${as})`, `${real.baseUrl}${path}`, headers);
  await real.stop(20000);
  return { file: newestProfile(profDir), payload, requests };
}

async function profileEcho(payload) {
  const dir = tempDir('cms-profile-echo-');
  const payloadFile = join(dir, 'document.json');
  writeFileSync(payloadFile, payload);
  const echo = startChild(
    'echo',
    [join(ROOT, 'bench/servers/echo.mjs')],
    { ...process.env, LOG_LEVEL: 'warn', PUBLIC_URL, BENCH_PAYLOAD_FILE: payloadFile },
    { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] },
  );
  const port = await waitForPortLine(echo);
  const url = `http://127.0.0.1:${port}${DOCUMENT_PATH}`;
  if ((await request(url)).status !== 200) throw new Error('echo did not answer 200');
  const requests = await drive('echo floor', url);
  await echo.stop(20000);
  return { file: newestProfile(dir), requests };
}

/** One content scenario against a server started with --cpu-prof on a copy of the N-object tree. */
async function profileContent(key, n) {
  const profDir = tempDir('cms-profile-content-');
  const t = await startTree(n, ['--cpu-prof', '--cpu-prof-dir', profDir]);
  const scenario = scenarioList(t.server.baseUrl, t.manifest.paths, 10).find((s) => s.key === key);
  if (!scenario) throw new Error(`unknown content scenario ${key}`);
  await sleep(1500);
  const options = { connections: scenario.connections ?? 10, headers: HEADERS, ...scenario.options };
  const url = scenario.prepare ? await scenario.prepare() : scenario.url;
  const warm = await loadWithLatencies(url, { ...options, duration: 2 });
  const result = await loadWithLatencies(url, { ...options, duration: DURATION });
  process.stdout.write(
    `${scenario.name} at N=${n} under --cpu-prof: ${result.requests.average.toFixed(0)} req/s, ` +
      `p50 ${quantile(result.latencies, 0.5).toFixed(2)} ms, p99 ${quantile(result.latencies, 0.99).toFixed(2)} ms, ` +
      `${result.non2xx + result.errors + result.timeouts} bad\n`,
  );
  await t.server.stop(60_000);
  return { file: newestProfile(profDir), requests: warm.requests.total + result.requests.total };
}

/** POSTs of Documents (distinct ids) into the seeded Folder at 10 connections, on a fresh suite under --cpu-prof. */
async function profilePost() {
  const profDir = tempDir('cms-profile-post-');
  const real = await startEmbedded('real', {
    dataDir: tempDir('cms-profile-post-data-'),
    workers: 0,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
  });
  await seedDocument(real.baseUrl);
  await sleep(1500);
  let next = 0;
  const options = {
    connections: 10,
    requests: [
      {
        method: 'POST',
        headers: { Authorization: ADMIN_AUTH, Accept: 'application/json', 'Content-Type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ '@type': 'Document', id: `profiled-${++next}`, title: `Profiled page ${next}` }),
        }),
      },
    ],
  };
  const url = `${real.baseUrl}/${FOLDER_ID}`;
  const warm = await loadWithLatencies(url, { ...options, duration: 2 });
  const result = await loadWithLatencies(url, { ...options, duration: DURATION });
  process.stdout.write(
    `POST Document under --cpu-prof: ${result.requests.average.toFixed(0)} req/s, ` +
      `p50 ${quantile(result.latencies, 0.5).toFixed(2)} ms, p99 ${quantile(result.latencies, 0.99).toFixed(2)} ms, ` +
      `${result.non2xx + result.errors + result.timeouts} bad\n`,
  );
  await real.stop(60_000);
  return { file: newestProfile(profDir), requests: warm['2xx'] + result['2xx'] };
}

async function main() {
  const [mode = 'both', file] = process.argv.slice(2);
  if (mode === 'post') {
    const { file: profile, requests } = await profilePost();
    const out = process.env.BENCH_PROFILE_OUT;
    const kept = out ? join(out, 'post.cpuprofile') : profile;
    if (out) writeFileSync(kept, readFileSync(profile));
    process.stdout.write(`\n${summarise(kept, requests).text}\n`);
    return;
  }
  if (mode === 'summarise') {
    process.stdout.write(`${summarise(file).text}\n`);
    return;
  }
  if (mode === 'content') {
    const n = Number(process.argv[4] ?? 100_000);
    const { file: profile, requests } = await profileContent(file ?? 'get', n);
    const out = process.env.BENCH_PROFILE_OUT;
    const kept = out ? join(out, `content-${file ?? 'get'}-${n}.cpuprofile`) : profile;
    if (out) writeFileSync(kept, readFileSync(profile));
    process.stdout.write(`\n${summarise(kept, requests).text}\n`);
    return;
  }
  if (!['real', 'echo', 'both'].includes(mode))
    throw new Error(`usage: profile.mjs [real|echo|both] | post | summarise <file> | content <scenario> [N]`);
  const out = process.env.BENCH_PROFILE_OUT;
  const keep = (name, from) => {
    if (!out) return from;
    const to = join(out, name);
    writeFileSync(to, readFileSync(from));
    return to;
  };
  const real = await profileReal();
  let realSummary;
  if (mode !== 'echo') {
    realSummary = summarise(keep('real.cpuprofile', real.file), real.requests);
    process.stdout.write(`\n${realSummary.text}\n\n`);
  }
  if (mode !== 'real') {
    const echo = await profileEcho(real.payload);
    const echoSummary = summarise(keep('echo.cpuprofile', echo.file), echo.requests);
    process.stdout.write(`\n${echoSummary.text}\n\n`);
    if (realSummary) {
      process.stdout.write(`${compare(realSummary.analysis, real.requests, echoSummary.analysis, echo.requests)}\n`);
    }
  }
  if (out) process.stdout.write(`profiles copied to ${out}\n`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`profile failed: ${error.stack ?? error}\n`);
} finally {
  await stopAll(5000);
}
process.exit(exitCode);
