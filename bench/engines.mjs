// `node bench/run.mjs engines`: the store engines side by side (issue 24), in one run on this machine. The embedded
// mode (services/embedded/dist/main.js, GATEWAY_WORKERS=0) twice: on the embedded engine (DATA_DIR) and on
// PostgreSQL (STORE_URL, a database made for the run at PG_URL and dropped after), beside the echo floor
// (bench/servers/echo.mjs: express -> one gRPC unary call -> the same Document bytes).
//
//   GET            a published Document, anonymous and uncached (`Cache-Control: no-cache` skips the gateway
//                  cache), and as admin with Basic: req/s, and the ratio to the echo floor's req/s
//   POST           a Document into a Folder as admin at BENCH_CONNECTIONS connections: p50 and p99 (ms, per
//                  response), and its p50 against the anonymous GET's p50 of the same engine
// Rounds are interleaved (each round runs every server once) and the median round by req/s is reported, as in the
// gateway part. `@search` on the 100,000-object tree and write -> searchable are the search and searchable parts,
// both on both engines (search on a PostgreSQL copy of the generated trees; searchable with two search replicas on
// PostgreSQL).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  FOLDER_ID,
  createDatabase,
  fmt,
  loadWithLatencies,
  log,
  machineState,
  quantile,
  seedDocument,
  startScriptServer,
  startEmbedded,
  stopAll,
  table,
  tempDir,
} from './lib.mjs';
import { benchEngines } from './searchable.mjs';

/** One autocannon run: req/s and the latencies of its 2xx answers (ms, fractional, sorted). */
async function measure(url, options, { connections, duration }) {
  const result = await loadWithLatencies(url, { connections, duration, ...options });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, latencies: result.latencies, bad };
}

export async function runEngines(settings) {
  const engines = benchEngines();
  log(`engines: ${machineState()}`);
  const databases = [];
  const servers = [];
  try {
    for (const engine of engines) {
      const env = {};
      if (engine === 'postgres') {
        const database = await createDatabase('bench_engines');
        databases.push(database);
        // A server engine needs the secrets a production deployment sets (identity refuses to start without).
        Object.assign(env, { STORE_URL: database.url, JWT_SECRET: `bench-${'x'.repeat(40)}`, ADMIN_PASSWORD: 'admin' });
      }
      const server = await startEmbedded(`engines-${engine}`, { dataDir: tempDir('bench-engines-'), workers: 0, env });
      const payload = await seedDocument(server.baseUrl);
      servers.push({ engine, baseUrl: server.baseUrl, payload });
    }
    const payloadFile = join(tempDir('bench-engines-payload-'), 'document.json');
    writeFileSync(payloadFile, servers[0].payload);
    const echoUrl = (await startScriptServer('engines-echo', 'echo.mjs', payloadFile)).baseUrl;

    const rounds = Array.from({ length: settings.rounds }, () => ({}));
    const load = { connections: settings.connections, duration: settings.duration };
    const anonymous = { headers: { 'Cache-Control': 'no-cache', Accept: 'application/json' } };
    const basic = { headers: { Authorization: ADMIN_AUTH, 'Cache-Control': 'no-cache', Accept: 'application/json' } };
    const post = {
      method: 'POST',
      headers: { Authorization: ADMIN_AUTH, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ '@type': 'Document', title: 'Engine benchmark page' }),
    };
    for (const round of rounds) {
      round.echo = await measure(`${echoUrl}${DOCUMENT_PATH}`, {}, load);
      for (const { engine, baseUrl } of servers) {
        round[`${engine} anonymous`] = await measure(`${baseUrl}${DOCUMENT_PATH}`, anonymous, load);
        round[`${engine} basic`] = await measure(`${baseUrl}${DOCUMENT_PATH}`, basic, load);
        round[`${engine} post`] = await measure(`${baseUrl}/${FOLDER_ID}`, post, load);
      }
    }
    const medianOf = (key) => {
      const byRps = rounds.map((round) => round[key]).sort((a, b) => a.rps - b.rps);
      return byRps[Math.floor((byRps.length - 1) / 2)];
    };
    const echo = medianOf('echo');
    const rows = [['echo floor (express -> gRPC)', fmt(echo.rps), '1.00', fmt(quantile(echo.latencies, 0.5), 2), '-']];
    for (const { engine } of servers) {
      for (const kind of ['anonymous', 'basic']) {
        const m = medianOf(`${engine} ${kind}`);
        rows.push([
          `${engine}: GET Document, ${kind === 'basic' ? 'Basic' : 'anonymous'} uncached`,
          fmt(m.rps),
          fmt(m.rps / echo.rps, 2),
          fmt(quantile(m.latencies, 0.5), 2),
          String(m.bad),
        ]);
      }
      const p = medianOf(`${engine} post`);
      const get = medianOf(`${engine} anonymous`);
      rows.push([
        `${engine}: POST Document (p99 ${fmt(quantile(p.latencies, 0.99), 1)} ms; p50 ${fmt(
          quantile(p.latencies, 0.5) / quantile(get.latencies, 0.5),
          1,
        )} x GET's)`,
        fmt(p.rps),
        '-',
        fmt(quantile(p.latencies, 0.5), 2),
        String(p.bad),
      ]);
    }
    log(
      table(
        [
          `${settings.connections} conn, ${settings.duration} s, median of ${settings.rounds}`,
          'req/s',
          'of echo',
          'p50 ms',
          'bad',
        ],
        rows,
      ),
    );
    log(`engines at end: ${machineState()}`);
  } finally {
    await stopAll();
    for (const database of databases) await database.drop();
  }
}
