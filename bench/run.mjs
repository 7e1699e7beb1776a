// `npm run bench`: every part in one run; `node bench/run.mjs <part ...>` runs the
// parts named (gateway, content, history).
//
//   gateway  (this file) how close the real gateway path comes to the floor set by one
//            express hop plus one gRPC call, and to the ceiling of a bare node:http
//            server, all serving the identical Document JSON bytes:
//
//   1. ceiling      bench/servers/ceiling.mjs: node:http writing the bytes
//   2. echo floor   bench/servers/echo.mjs: express -> grpc-js unary Handle (real protos, helpers) -> echo
//   3. real         services/embedded/dist/main.js (GATEWAY_WORKERS=0), anonymous GET of a seeded Document
//   4. real, 1 wkr  the same with GATEWAY_WORKERS=1 (gateway in a forked worker, services in the primary)
//   3b/3c           the same process as 3, GET of the Document authenticated as admin with Basic and with a
//                   Bearer token from POST /@login (the gateway's credential cache at its defaults)
//   3d/3e           the same process as 3 (issue 18): anonymous revalidated with If-None-Match (304, from the
//                   gateway cache), and anonymous uncached (`Cache-Control: no-cache` skips the gateway cache);
//                   3 itself is served from the gateway cache
//   3f              the same process as 3: anonymous `@search?SearchableText=` of a word only the seeded Document
//                   has (one match), uncached; issue 27 target 1 sets 3b, 3c, 3e and 3f against the echo
//                   (by req/s; beside it, informational, by each server process's CPU per request from /proc)
//   5. real, 2 wkrs GATEWAY_WORKERS=2 (3 processes), anonymous, against 4
//   mixed           after the rounds, on 3: 95% anonymous GETs and 5% PATCHes of Documents' titles as admin
//                   over BENCH_CONNECTIONS autocannon connections (each writes its own Document, in order),
//                   counting reads that started after a write's answer and did not see it (stale reads; must be 0)
//
// Every server runs in its own child process; autocannon runs here. Rounds are
// interleaved (each round benchmarks every server once) so load drifts on the
// machine hit all servers alike; the median round (by req/s) per server is
// reported.
//
//   content  bench/content.mjs: the content service on generated trees of 1,000 and 100,000 objects
//            (GET of a Document, of a 1,000-item folder, expanded GET, POST), same method.
//   search   bench/search.mjs: @search and @querystring-search on the content part's trees (issue 12), on each
//            engine of BENCH_ENGINES (the PostgreSQL copy of a tree: bench/pg-tree.mjs), side by side (issue 24).
//   store    bench/store.mjs: the embedded store at 100,000 objects through the store port: start-up,
//            insert/update p50/p99 at 1 and BENCH_CONNECTIONS writers, longest event-loop stall under a
//            sustained write load that includes a background compaction (issue 18, item 6).
//   store-engines  bench/store-engines.mjs: the embedded and the SQLite engine side by side through the store port
//            at 10,000 objects: insert, update, get, listing, count (mean µs per op), heap after GC.
//   history  bench/history.mjs: GET of a Document with 200 versions against one with none; PATCH with
//            versioning at one connection.
//   searchable  bench/searchable.mjs: write -> searchable latency (a PATCH of a title to the search index having it) at a
//            steady BENCH_SEARCHABLE_RATE (500) writes/s, distributed mode over RabbitMQ (issue 12), on each engine
//            of BENCH_ENGINES (embedded,postgres; two search replicas on PostgreSQL), side by side.
//   engines  bench/engines.mjs: GET of a Document (uncached, anonymous and Basic; ratio to the echo floor) and
//            POST p50 at BENCH_CONNECTIONS, on the embedded engine and on PostgreSQL in one run (issue 24).
//   pageview bench/pageview.mjs: the API calls of a logged-in editor's page view in Volto (recorded by the browser
//            test: bench/volto-pageview.json) as a unit, against the echo floor (issue 27, target 2).
//   proof    bench/service-proof.mjs: what the service proof costs per gRPC call, the echo floor with and without
//            it, and its share of the real path's CPU per request (issue 25).
//   stalls   bench/stalls.mjs: the longest event-loop stretch of the embedded suite during a mixed load (reads,
//            searches, 5% POSTs) on the 100,000-object tree (issue 27, target 6); BENCH_STALLS_ENGINE=sqlite on the
//            stamped tree, and BENCH_STALLS_TOPOLOGY=split with every service a process of its own.
//   post-cpu bench/post-cpu.mjs: CPU per POST of a Document in the embedded suite (the whole process, background
//            work included) at 1 and BENCH_CONNECTIONS connections, POST p50 against an uncached GET's p50 in the
//            same run (issue 27, target 3); BENCH_POST_BASELINE runs another build beside it.
//   million  bench/million.mjs: trees of 1,000, 100,000 and 1,000,000 objects written through the store port
//            (bench/stamp-tree.mjs) on SQLite: start-up, resident memory, GET and search flatness (issue 27, target 7).
//
// Env: BENCH_DURATION (s, default 10), BENCH_ROUNDS (3), BENCH_WARMUP (s, 2),
// BENCH_CONNECTIONS (10). Exit code is 0 on a MISS or FAIL: this is a report,
// not a test.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { runComments } from './comments.mjs';
import { runContent } from './content.mjs';
import { runHistory } from './history.mjs';
import { runMillion } from './million.mjs';
import { runSearch } from './search.mjs';
import { runEngines } from './engines.mjs';
import { runPageView } from './pageview.mjs';
import { runPostCpu } from './post-cpu.mjs';
import { runStalls } from './stalls.mjs';
import { runServiceProof } from './service-proof.mjs';
import { runSearchable } from './searchable.mjs';
import { runStore } from './store.mjs';
import { runStoreEngines } from './store-engines.mjs';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  FOLDER_ID,
  benchSettings,
  copyDir,
  cpuSecondsOf,
  cpuSnapshot,
  fmt,
  foreignCores,
  load,
  log,
  loginToken,
  machineState,
  median,
  request,
  SEARCH_TEXT_PATH,
  sleep,
  startScriptServer,
  stopAll,
  startEmbedded,
  seedDocument,
  table,
  tempDir,
} from './lib.mjs';

const TARGET = 0.7;
/** An authenticated GET of the Document against the anonymous one, on the same gateway. */
const AUTH_TARGET = 0.8;
/** Issue 27 target 1: uncached reads of the real gateway (server 3) against the echo floor, by server key. */
const TARGET_1 = [
  ['uncached anonymous GET', 'uncached', 0.8],
  ['Basic admin GET', 'basic', 0.8],
  ['Bearer admin GET', 'bearer', 0.8],
  ['@search by text (1 match, uncached)', 'search', 0.6],
];
/** Cores' worth of CPU taken by other processes above which a run is flagged as contaminated. */
const NOISY_CORES = 0.25;

async function verify(server, payload) {
  const response = await request(server.url, { headers: server.headers });
  if (response.status !== 200 || (!server.headers && !response.bytes.equals(payload))) {
    throw new Error(
      `${server.label} at ${server.url} answered ${response.status} with ${response.bytes.length} bytes; ` +
        `expected 200 with the ${payload.length}-byte Document:\n${response.bytes.toString('utf8').slice(0, 500)}`,
    );
  }
}

const foreignNote = (values) =>
  values.every(Number.isFinite) ? ` (other processes' CPU: ${values.map((v) => fmt(v, 2)).join(' / ')} cores)` : '';

function summarise(result, expectStatus = 200) {
  // A revalidation answers 304: only 4xx/5xx and failures count as bad there.
  const wrong = expectStatus === 304 ? result['4xx'] + result['5xx'] : result.non2xx;
  return {
    rps: result.requests.average,
    avg: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    bad: wrong + result.errors + result.timeouts,
  };
}

/** Documents the mixed load spreads over: one writer per document, so that writes to one commit in order. */
const MIXED_DOCUMENTS = 10;
const MIXED_WRITE_SHARE = 0.05;

/**
 * Mixed load on one server, driven by autocannon over `connections` connections for `durationS`: each request is,
 * with probability MIXED_WRITE_SHARE, a PATCH as admin of the title of a random one of MIXED_DOCUMENTS Documents
 * (made and published first) that has no write in flight (so that writes to one commit in the order of their
 * numbers), else an anonymous GET of a random one. A read is stale when it started after the answer of write n
 * to its Document and shows a title older than n (a count, not a timing).
 */
async function mixedLoad(baseUrl, { connections, durationS }) {
  const auth = { Authorization: ADMIN_AUTH, Accept: 'application/json' };
  const paths = [DOCUMENT_PATH];
  for (let i = 1; i < Math.min(connections, MIXED_DOCUMENTS); i++) {
    const id = `mixed-${i}`;
    const created = await request(`${baseUrl}/${FOLDER_ID}`, {
      method: 'POST',
      headers: auth,
      body: { '@type': 'Document', id, title: 'mixed 0' },
    });
    if (created.status !== 201) throw new Error(`POST of ${id} answered ${created.status}`);
    await request(`${baseUrl}/${FOLDER_ID}/${id}/@workflow/publish`, { method: 'POST', headers: auth, body: {} });
    paths.push(`/${FOLDER_ID}/${id}`);
  }
  const acknowledged = paths.map(() => 0);
  const written = paths.map(() => 0);
  const writing = paths.map(() => false);
  const counts = { reads: 0, writes: 0, stale: 0, hits: 0, bad: 0 };
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: durationS,
    pipelining: 1,
    requests: [
      {
        // autocannon calls this as the request leaves, and resets `context` for each request.
        setupRequest(req, context) {
          const doc = Math.floor(Math.random() * paths.length);
          if (Math.random() < MIXED_WRITE_SHARE && !writing[doc]) {
            writing[doc] = true;
            const n = ++written[doc];
            context.doc = doc;
            context.write = n;
            return {
              ...req,
              method: 'PATCH',
              path: paths[context.doc],
              headers: { ...auth, 'Content-Type': 'application/json' },
              body: JSON.stringify({ title: `mixed ${n}` }),
            };
          }
          context.write = 0;
          context.read = doc;
          context.expected = acknowledged[doc];
          return { ...req, method: 'GET', path: paths[context.read], headers: { Accept: 'application/json' } };
        },
        onResponse(status, body, context, headers) {
          if (context.write) {
            writing[context.doc] = false;
            counts.writes += 1;
            if (status !== 204) counts.bad += 1;
            else acknowledged[context.doc] = Math.max(acknowledged[context.doc], context.write);
            return;
          }
          counts.reads += 1;
          if (status !== 200) {
            counts.bad += 1;
            return;
          }
          if (headerValue(headers, 'x-cache') === 'HIT') counts.hits += 1;
          const match = /"title":\s*"mixed (\d+)"/.exec(body);
          const seen = match ? Number(match[1]) : 0;
          if (seen < context.expected) counts.stale += 1;
        },
      },
    ],
  });
  return { ...counts, rps: (counts.reads + counts.writes) / durationS, errors: result.errors + result.timeouts };
}

/** A response header from autocannon's flat `[name, value, ...]` list (or object), whatever its case. */
function headerValue(headers, name) {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === name) return headers[i + 1];
    return undefined;
  }
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

async function runGateway(settings) {
  const started = Date.now();
  log('CMS gateway benchmark (npm run bench -- gateway)');
  log(`machine at start: ${machineState()}`);
  log(
    `settings: autocannon ${settings.connections} connections, pipelining 1, warm-up ${settings.warmup} s per server (discarded), ` +
      `${settings.rounds} interleaved rounds of ${settings.duration} s, median round by req/s`,
  );
  log(
    'real gateway: embedded store in a fresh temp DATA_DIR, LOG_LEVEL=warn (per-request access log lines are at info, so not written)',
  );
  log();

  // The gateway cache is opt-in (one content process, as here); the servers below inherit this.
  process.env.GATEWAY_CACHE_BYTES ??= String(64 * 1024 * 1024);
  // Seed once, then run both real variants on identical copies of that data, so all serve the same bytes.
  const seedDir = tempDir('cms-bench-seed-');
  const seeder = await startEmbedded('real (seeding)', { dataDir: seedDir, workers: 0 });
  await seedDocument(seeder.baseUrl);
  await seeder.stop();
  const [real, realWorkers, realWorkers2] = await Promise.all([
    startEmbedded('real', { dataDir: copyDir(seedDir, 'cms-bench-w0-'), workers: 0 }),
    startEmbedded('real GATEWAY_WORKERS=1', { dataDir: copyDir(seedDir, 'cms-bench-w1-'), workers: 1 }),
    startEmbedded('real GATEWAY_WORKERS=2', { dataDir: copyDir(seedDir, 'cms-bench-w2-'), workers: 2 }),
  ]);
  const fetched = await request(`${real.baseUrl}${DOCUMENT_PATH}`);
  if (fetched.status !== 200) throw new Error(`GET ${DOCUMENT_PATH} answered ${fetched.status}`);
  const payload = fetched.bytes;
  const payloadFile = join(tempDir('cms-bench-payload-'), 'document.json');
  writeFileSync(payloadFile, payload);
  log(
    `payload: GET ${DOCUMENT_PATH} of a seeded Document, ${payload.length} bytes, served identically by all four servers`,
  );
  const etag = fetched.headers.get('etag');
  if (!etag) throw new Error(`GET ${DOCUMENT_PATH} answered without an ETag`);
  const token = await loginToken(real.baseUrl);
  const authenticated = {
    basic: { Authorization: ADMIN_AUTH },
    bearer: { Authorization: `Bearer ${token}` },
  };
  for (const [scheme, headers] of Object.entries(authenticated)) {
    const response = await request(`${real.baseUrl}${DOCUMENT_PATH}`, { headers });
    const same = response.bytes.equals(payload) ? 'the same bytes' : `${response.bytes.length} bytes`;
    log(`authenticated (${scheme}, admin): GET ${DOCUMENT_PATH} on server 3 answers ${response.status} with ${same}`);
  }

  const [ceiling, echo] = await Promise.all([
    startScriptServer('ceiling', 'ceiling.mjs', payloadFile),
    startScriptServer('echo', 'echo.mjs', payloadFile),
  ]);
  const servers = [
    {
      key: 'ceiling',
      label: '1 ceiling: bare node:http',
      url: `${ceiling.baseUrl}${DOCUMENT_PATH}`,
      handles: [ceiling],
    },
    {
      key: 'echo',
      label: '2 echo floor: express + 1 gRPC unary',
      url: `${echo.baseUrl}${DOCUMENT_PATH}`,
      handles: [echo],
    },
    {
      key: 'real',
      label: '3 real gateway (embedded, 1 process), anonymous from its cache',
      url: `${real.baseUrl}${DOCUMENT_PATH}`,
      handles: [real],
    },
    {
      key: 'revalidated',
      label: '3d real, anonymous If-None-Match: 304 (same process)',
      url: `${real.baseUrl}${DOCUMENT_PATH}`,
      headers: { 'If-None-Match': etag },
      expectStatus: 304,
      handles: [real],
    },
    {
      key: 'uncached',
      label: '3e real, anonymous uncached (no-cache; same process)',
      url: `${real.baseUrl}${DOCUMENT_PATH}`,
      headers: { 'Cache-Control': 'no-cache' },
      handles: [real],
    },
    {
      key: 'basic',
      label: '3b real, Basic admin (same process as 3)',
      url: `${real.baseUrl}${DOCUMENT_PATH}`,
      headers: authenticated.basic,
      handles: [real],
    },
    {
      key: 'bearer',
      label: '3c real, Bearer token (same process as 3)',
      url: `${real.baseUrl}${DOCUMENT_PATH}`,
      headers: authenticated.bearer,
      handles: [real],
    },
    {
      key: 'search',
      label: '3f real, anonymous @search by text, 1 match (no-cache; same process)',
      url: `${real.baseUrl}${SEARCH_TEXT_PATH}`,
      headers: { 'Cache-Control': 'no-cache' },
      handles: [real],
    },
    {
      key: 'workers',
      label: '4 real, GATEWAY_WORKERS=1 (2 processes)',
      url: `${realWorkers.baseUrl}${DOCUMENT_PATH}`,
      handles: [realWorkers],
    },
    {
      key: 'workers2',
      label: '5 real, GATEWAY_WORKERS=2 (3 processes)',
      url: `${realWorkers2.baseUrl}${DOCUMENT_PATH}`,
      handles: [realWorkers2],
    },
  ];
  for (const server of servers) if (!server.expectStatus) await verify(server, payload);
  log();

  const options = { connections: settings.connections };
  for (const server of servers) {
    await load(server.url, { ...options, headers: server.headers, duration: settings.warmup });
    server.rounds = [];
  }
  const foreign = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const parts = [];
    for (const server of servers) {
      for (const handle of server.handles) {
        if (handle.exited()) throw new Error(`${handle.name} died during the run\n${handle.describe()}`);
      }
      const before = cpuSnapshot();
      const cpuBefore = cpuSecondsOf(server.handles[0].pid);
      const raw = await load(server.url, { ...options, headers: server.headers, duration: settings.duration });
      const result = summarise(raw, server.expectStatus);
      // The server's own CPU per request: what a loaded machine disturbs far less than req/s.
      result.cpuUs = ((cpuSecondsOf(server.handles[0].pid) - cpuBefore) / raw.requests.total) * 1e6;
      result.foreign = foreignCores(before, cpuSnapshot(), os.availableParallelism());
      server.rounds.push(result);
      parts.push(`${server.key} ${fmt(result.rps)}${result.bad ? ` (${result.bad} bad)` : ''}`);
      foreign.push(result.foreign);
      await sleep(300);
    }
    const others = foreignNote(foreign.slice(-servers.length));
    log(`round ${round}/${settings.rounds}: ${parts.join(', ')} req/s${others}`);
  }

  for (const server of servers) {
    const mid = median(server.rounds.map((r) => r.rps));
    server.result = server.rounds.find((r) => r.rps === mid);
    server.cpuUs = median(server.rounds.map((r) => r.cpuUs));
  }
  const cpuBy = Object.fromEntries(servers.map((s) => [s.key, s.cpuUs]));
  const by = Object.fromEntries(servers.map((s) => [s.key, s.result]));
  log();
  log(
    table(
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'avg ms', 'rounds req/s', 'non-2xx/err'],
      servers.map((s) => [
        s.label,
        fmt(s.result.rps),
        fmt(s.result.p50, 2),
        fmt(s.result.p99, 2),
        fmt(s.result.avg, 2),
        s.rounds.map((r) => fmt(r.rps)).join(' / '),
        s.rounds.reduce((sum, r) => sum + r.bad, 0),
      ]),
    ),
  );
  log('(autocannon records latency in whole milliseconds: p50/p99 of 0 mean under 1 ms; avg is the mean)');
  log();
  const ratio = (a, b) => by[a].rps / by[b].rps;
  const realVsEcho = ratio('real', 'echo');
  const workersVsEcho = ratio('workers', 'echo');
  log(`real / echo      req/s: ${fmt(realVsEcho, 3)}`);
  log(`real / ceiling   req/s: ${fmt(ratio('real', 'ceiling'), 3)}`);
  log(`echo / ceiling   req/s: ${fmt(ratio('echo', 'ceiling'), 3)}`);
  log(`real(1 worker) / echo     req/s: ${fmt(workersVsEcho, 3)}  (uses 2 cores against echo's 1; informational)`);
  log(`real(1 worker) / real     req/s: ${fmt(ratio('workers', 'real'), 3)}`);
  log(`real(1 worker) / ceiling  req/s: ${fmt(ratio('workers', 'ceiling'), 3)}`);
  log();
  log(
    `target: real >= ${TARGET} x echo req/s (${fmt(TARGET * by.echo.rps)} req/s): ${realVsEcho >= TARGET ? 'PASS' : 'MISS'} (${fmt(realVsEcho, 3)})`,
  );
  log(
    `        real(1 worker) against the same bar: ${workersVsEcho >= TARGET ? 'PASS' : 'MISS'} (${fmt(workersVsEcho, 3)}; informational)`,
  );
  log();
  // Against the uncached anonymous GET: both then make the gRPC hop (the cached one is in the table above).
  log('authenticated against anonymous uncached, same gateway process (3):');
  log(
    table(
      ['GET as', 'req/s', 'p50 ms', 'p99 ms', 'req/s ratio', 'p50 ratio', 'p99 ratio'],
      ['uncached', 'basic', 'bearer'].map((key) => [
        key === 'uncached' ? 'anonymous (no-cache)' : key === 'basic' ? 'Basic admin' : 'Bearer admin',
        fmt(by[key].rps),
        fmt(by[key].p50, 2),
        fmt(by[key].p99, 2),
        fmt(ratio(key, 'uncached'), 3),
        by.uncached.p50 > 0 ? fmt(by[key].p50 / by.uncached.p50, 2) : 'n/a',
        by.uncached.p99 > 0 ? fmt(by[key].p99 / by.uncached.p99, 2) : 'n/a',
      ]),
    ),
  );
  const authRatios = ['basic', 'bearer'].map((key) => ratio(key, 'uncached'));
  const authPass = authRatios.every((r) => r >= AUTH_TARGET);
  log(
    `target: authenticated >= ${AUTH_TARGET} x anonymous uncached req/s (${fmt(AUTH_TARGET * by.uncached.rps)} req/s): ` +
      `${authPass ? 'PASS' : 'MISS'} (Basic ${fmt(authRatios[0], 3)}, Bearer ${fmt(authRatios[1], 3)})`,
  );
  log();
  log('HTTP caching (issue 18), ratios in this run:');
  const targets = [
    ['cached anonymous / ceiling', ratio('real', 'ceiling'), 0.15],
    ['304 revalidated / ceiling', ratio('revalidated', 'ceiling'), 0.15],
    ['uncached anonymous / Basic admin', ratio('uncached', 'basic'), 1],
    ['uncached anonymous / Bearer admin', ratio('uncached', 'bearer'), 1],
    ['Basic admin / echo', ratio('basic', 'echo'), 0.8],
    ['Bearer admin / echo', ratio('bearer', 'echo'), 0.8],
    ['GATEWAY_WORKERS=2 / GATEWAY_WORKERS=1', ratio('workers2', 'workers'), 1.3],
  ];
  for (const [name, value, target] of targets) {
    log(`target: ${name} >= ${target}: ${value >= target ? 'PASS' : 'MISS'} (${fmt(value, 3)})`);
  }
  log();
  log('issue 27 target 1, uncached reads of the same process (3) against the echo floor:');
  for (const [name, key, target] of TARGET_1) {
    const value = ratio(key, 'echo');
    log(
      `issue 27 target 1: ${name} / echo >= ${target}: ${value >= target ? 'PASS' : 'MISS'} ` +
        `(${fmt(value, 3)}; ${fmt(by[key].rps)} against ${fmt(by.echo.rps)} req/s)`,
    );
  }
  log(
    "  the same by each server process's CPU per request (median of the rounds; informational, steadier on a busy " +
      'machine): ' +
      TARGET_1.map(([, key]) => `${key} ${fmt(cpuBy[key])} us (echo/${key} ${fmt(cpuBy.echo / cpuBy[key], 3)})`).join(
        ', ',
      ) +
      `; echo ${fmt(cpuBy.echo)} us`,
  );
  log();
  const mixed = await mixedLoad(real.baseUrl, { connections: settings.connections, durationS: settings.duration });
  log(
    `mixed 95% anonymous GET / 5% PATCH on 3, ${settings.connections} connections, ${settings.duration} s: ` +
      `${fmt(mixed.rps)} req/s (${mixed.reads} reads, ${mixed.hits} from the gateway cache, ${mixed.writes} writes, ` +
      `${mixed.bad} bad, ${mixed.errors} errors), stale reads: ${mixed.stale}`,
  );
  const mixedRatio = mixed.rps / by.uncached.rps;
  log(
    `target: mixed >= 3 x uncached anonymous req/s with 0 stale reads: ` +
      `${mixedRatio >= 3 && mixed.stale === 0 ? 'PASS' : 'MISS'} (${fmt(mixedRatio, 3)}, ${mixed.stale} stale)`,
  );
  log(
    `(mixed: autocannon, each connection writing its own of ${MIXED_DOCUMENTS} Documents; every read's body is ` +
      'searched for its title to count stale reads)',
  );
  const bad = servers.reduce((sum, s) => sum + s.rounds.reduce((n, r) => n + r.bad, 0), 0);
  if (bad > 0) log(`warning: ${bad} non-2xx responses, errors or timeouts during measured rounds; numbers are suspect`);
  const noisy = servers.flatMap((s) =>
    s.rounds
      .map((round, i) => ({ name: `${s.key} r${i + 1}`, cores: round.foreign }))
      .filter((run) => run.cores > NOISY_CORES),
  );
  const measured = foreign.filter(Number.isFinite);
  if (measured.length > 0) {
    const worst = Math.max(...measured);
    log(
      `other processes' CPU during measured runs: up to ${fmt(worst, 2)} of ${os.availableParallelism()} cores` +
        (noisy.length === 0
          ? ` (every run under ${NOISY_CORES}: quiet enough)`
          : `; over ${NOISY_CORES} in ${noisy.length} of ${measured.length} runs (${noisy.map((n) => `${n.name} ${fmt(n.cores, 2)}`).join(', ')}): ` +
            'the machine was not quiet, those runs are contaminated; rerun when idle if the medians depend on them'),
    );
  }
  log(`machine at end:   ${machineState()}`);
  log(
    `note: autocannon shares the 2 cores with the servers (load generator in this process; the 1-worker variant runs 2 server processes)`,
  );
  log(`gateway part ${fmt((Date.now() - started) / 1000, 1)} s`);
  await Promise.all([real, realWorkers, realWorkers2, ceiling, echo].map((handle) => handle.stop()));
}

const PARTS = {
  gateway: runGateway,
  content: runContent,
  history: runHistory,
  comments: runComments,
  search: runSearch,
  searchable: runSearchable,
  store: runStore,
  'store-engines': runStoreEngines,
  engines: runEngines,
  proof: runServiceProof,
  pageview: runPageView,
  'post-cpu': runPostCpu,
  stalls: runStalls,
  million: runMillion,
};

async function main() {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !(name in PARTS));
  if (unknown.length > 0)
    throw new Error(`unknown part ${unknown.join(', ')}; usage: run.mjs [${Object.keys(PARTS).join('|')} ...]`);
  const settings = benchSettings();
  const started = Date.now();
  const selected = names.length > 0 ? names : Object.keys(PARTS);
  for (const [i, name] of selected.entries()) {
    if (i > 0) log('\n');
    await PARTS[name](settings);
  }
  log(`total ${fmt((Date.now() - started) / 1000, 1)} s`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
} finally {
  // The 'exit' hook in lib.mjs SIGKILLs anything left; this is the graceful path.
  await stopAll(5000);
}
process.exit(exitCode);
