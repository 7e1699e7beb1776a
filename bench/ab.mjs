// `BENCH_BASELINE=<dir> node bench/ab.mjs`: this checkout's embedded suite against another built checkout's (a
// copy of the tree before a change, node_modules and dist included), on the reads of issue 27 target 1: uncached
// anonymous, Basic and Bearer GET of the seeded Document and a one-match `@search` by text, beside the echo
// floor. Rounds are interleaved (each round runs every pair once, old and new back to back), median round per
// series; figures are req/s, the ratio to the echo of the same run, and the server process's CPU per request
// (from /proc, Linux only), which a loaded machine disturbs far less than req/s.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  SEARCH_TEXT_PATH,
  benchSettings,
  copyDir,
  cpuSecondsOf,
  embeddedEnv,
  fmt,
  freePort,
  load,
  log,
  loginToken,
  machineState,
  median,
  seedDocument,
  sleep,
  startChild,
  startEmbedded,
  startScriptServer,
  stopAll,
  tempDir,
  waitForReady,
} from './lib.mjs';

async function startBaseline(root, dataDir) {
  const port = await freePort();
  const handle = startChild('baseline', [join(root, 'services/embedded/dist/main.js')], {
    ...embeddedEnv({ port, dataDir, workers: 0 }),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(handle, baseUrl);
  return { ...handle, baseUrl };
}

async function main() {
  const root = process.env.BENCH_BASELINE;
  if (!root) throw new Error('BENCH_BASELINE=<built checkout to compare against> is required');
  const settings = benchSettings();
  log(`machine at start: ${machineState()}`);
  process.env.GATEWAY_CACHE_BYTES ??= String(64 * 1024 * 1024);
  const seedDir = tempDir('cms-ab-seed-');
  const seeder = await startEmbedded('seeding', { dataDir: seedDir, workers: 0 });
  const payload = await seedDocument(seeder.baseUrl);
  await seeder.stop();
  const payloadFile = join(tempDir('cms-ab-payload-'), 'document.json');
  writeFileSync(payloadFile, payload);
  const [fresh, old, echo] = await Promise.all([
    startEmbedded('new', { dataDir: copyDir(seedDir, 'cms-ab-new-'), workers: 0 }),
    startBaseline(root, copyDir(seedDir, 'cms-ab-old-')),
    startScriptServer('echo', 'echo.mjs', payloadFile),
  ]);
  const noCache = { 'Cache-Control': 'no-cache' };
  const reads = {
    uncached: { path: DOCUMENT_PATH, headers: noCache },
    basic: { path: DOCUMENT_PATH, headers: { ...noCache, Authorization: ADMIN_AUTH } },
    bearer: (server) =>
      loginToken(server.baseUrl).then((token) => ({
        path: DOCUMENT_PATH,
        headers: { ...noCache, Authorization: `Bearer ${token}` },
      })),
    search: { path: SEARCH_TEXT_PATH, headers: noCache },
  };
  const series = [{ key: 'echo', url: `${echo.baseUrl}${DOCUMENT_PATH}`, pid: echo.pid, rounds: [], cpu: [] }];
  for (const [key, read] of Object.entries(reads)) {
    for (const [side, server] of [
      ['old', old],
      ['new', fresh],
    ]) {
      const { path, headers } = typeof read === 'function' ? await read(server) : read;
      series.push({
        key: `${key} ${side}`,
        url: `${server.baseUrl}${path}`,
        pid: server.pid,
        headers,
        rounds: [],
        cpu: [],
      });
    }
  }
  const options = { connections: settings.connections };
  for (const s of series) await load(s.url, { ...options, headers: s.headers, duration: settings.warmup });
  for (let round = 1; round <= settings.rounds; round++) {
    const parts = [];
    for (const s of series) {
      const before = cpuSecondsOf(s.pid);
      const result = await load(s.url, { ...options, headers: s.headers, duration: settings.duration });
      const bad = result.non2xx + result.errors + result.timeouts;
      s.rounds.push(result.requests.average);
      s.cpu.push(((cpuSecondsOf(s.pid) - before) / result.requests.total) * 1e6);
      parts.push(`${s.key} ${fmt(result.requests.average)}${bad ? ` (${bad} bad)` : ''}`);
      await sleep(300);
    }
    log(`round ${round}/${settings.rounds}: ${parts.join(', ')} req/s`);
  }
  const by = Object.fromEntries(series.map((s) => [s.key, median(s.rounds)]));
  const cpu = Object.fromEntries(series.map((s) => [s.key, median(s.cpu)]));
  log();
  log(`echo ${fmt(by.echo)} req/s, ${fmt(cpu.echo)} us CPU/req`);
  for (const key of Object.keys(reads)) {
    const [o, n] = [by[`${key} old`], by[`${key} new`]];
    const [oc, nc] = [cpu[`${key} old`], cpu[`${key} new`]];
    log(
      `${key.padEnd(8)} old ${fmt(o).padStart(6)} req/s (${fmt(o / by.echo, 3)} x echo) ${fmt(oc).padStart(5)} us CPU/req   ` +
        `new ${fmt(n).padStart(6)} req/s (${fmt(n / by.echo, 3)} x echo) ${fmt(nc).padStart(5)} us CPU/req   ` +
        `new/old req/s ${fmt(n / o, 3)}, CPU/req ${fmt(nc / oc, 3)}`,
    );
  }
  log(`machine at end: ${machineState()}`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`ab failed: ${error.stack ?? error}\n`);
} finally {
  await stopAll(5000);
}
process.exit(exitCode);
