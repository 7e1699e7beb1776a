// `node bench/run.mjs pageview` (issue 27, target 2): the API calls Volto makes for one page view of a logged-in
// editor, benchmarked as a unit against the echo floor (bench/servers/echo.mjs: express -> one gRPC unary call).
//
// The calls are bench/volto-pageview.json, recorded from the browser test: the step "a logged-in editor loads the
// published page" of test/volto/run.mjs writes the gateway's log of that step (Volto's server-side calls and the
// browser's) when VOLTO_PAGEVIEW_LOG names a file:
//   VOLTO_PASSES=neutral VOLTO_STEPS=2-3,5-6 VOLTO_PAGEVIEW_LOG=bench/volto-pageview.json node test/volto/run.mjs
// Each is replayed as recorded (method, path with `/++api++` and query), the page being the bench's published
// Document, with the editor's Bearer token (from `POST /@login`) and `Accept: application/json`, as Volto sends
// them; a call recorded as 304 (the browser revalidating) sends the page's current ETag in `If-None-Match`.
//
//   unit       every connection sends the calls one after the other, over and over: req/s over all calls
//   each call  the call alone at the same connections (where the time goes)
// Rounds are interleaved with the echo floor; the median round by req/s is reported. Target: the unit's req/s
// (its rate per call on average) >= 0.5 x the echo's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOCUMENT_PATH,
  fmt,
  loadWithLatencies,
  log,
  loginToken,
  machineState,
  quantile,
  request,
  seedDocument,
  startEmbedded,
  startScriptServer,
  stopAll,
  table,
  tempDir,
} from './lib.mjs';

const RECORDED = new URL('./volto-pageview.json', import.meta.url);
const TARGET = 0.5;

/** The recorded calls, the page's path as the bench's Document. */
function recordedCalls() {
  const { calls } = JSON.parse(readFileSync(RECORDED, 'utf8'));
  if (!Array.isArray(calls) || calls.length === 0) throw new Error(`${RECORDED.pathname} lists no calls`);
  return calls.map((call) => ({ ...call, path: call.path.split('/{document}').join(DOCUMENT_PATH) }));
}

async function measure(url, options, settings) {
  const result = await loadWithLatencies(url, {
    connections: settings.connections,
    duration: settings.duration,
    ...options,
  });
  // A 304 is the answer a revalidation wants: only errors, timeouts, 4xx and 5xx are bad.
  const bad = result.errors + result.timeouts + result['4xx'] + result['5xx'];
  return { rps: result.requests.average, latencies: result.latencies, bad };
}

export async function runPageView(settings) {
  log(`pageview: ${machineState()}`);
  const started = Date.now();
  try {
    const server = await startEmbedded('pageview', { dataDir: tempDir('bench-pageview-'), workers: 0 });
    const payload = await seedDocument(server.baseUrl);
    const payloadFile = join(tempDir('bench-pageview-payload-'), 'document.json');
    writeFileSync(payloadFile, payload);
    const echoUrl = (await startScriptServer('pageview-echo', 'echo.mjs', payloadFile)).baseUrl;

    const token = await loginToken(server.baseUrl);
    const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    const calls = [];
    for (const call of recordedCalls()) {
      const callHeaders = { ...headers };
      if (call.status === 304) {
        const current = await request(`${server.baseUrl}${call.path}`, { headers });
        const etag = current.headers.get('etag');
        if (!etag) throw new Error(`GET ${call.path} has no ETag to revalidate with`);
        callHeaders['If-None-Match'] = etag;
      }
      const check = await request(`${server.baseUrl}${call.path}`, { method: call.method, headers: callHeaders });
      if (check.status !== call.status) {
        throw new Error(`${call.method} ${call.path} answered ${check.status}, recorded ${call.status}`);
      }
      calls.push({ ...call, headers: callHeaders });
    }
    const unit = { requests: calls.map(({ method, path, headers: h }) => ({ method, path, headers: h })) };

    const rounds = [];
    for (let round = 1; round <= settings.rounds; round++) {
      const measured = { echo: await measure(`${echoUrl}${DOCUMENT_PATH}`, {}, settings) };
      measured.unit = await measure(server.baseUrl, unit, settings);
      for (const [i, call] of calls.entries()) {
        measured[i] = await measure(
          `${server.baseUrl}${call.path}`,
          { method: call.method, headers: call.headers },
          settings,
        );
      }
      log(`round ${round}/${settings.rounds}: echo ${fmt(measured.echo.rps)}, unit ${fmt(measured.unit.rps)} req/s`);
      rounds.push(measured);
    }
    const medianOf = (key) => {
      const sorted = rounds.map((r) => r[key]).sort((a, b) => a.rps - b.rps);
      return sorted[Math.floor((sorted.length - 1) / 2)];
    };
    const echo = medianOf('echo');
    const unitResult = medianOf('unit');
    const rows = [
      ['echo floor (express -> gRPC)', fmt(echo.rps), '1.00', fmt(quantile(echo.latencies, 0.5), 2), '-'],
      [
        `the page view's ${calls.length} calls as a unit`,
        fmt(unitResult.rps),
        fmt(unitResult.rps / echo.rps, 2),
        '-',
        String(unitResult.bad),
      ],
      ...calls.map((call, i) => {
        const m = medianOf(i);
        return [
          `  ${call.method} ${call.path.slice(0, 70)} (${call.status})`,
          fmt(m.rps),
          fmt(m.rps / echo.rps, 2),
          call.status === 200 ? fmt(quantile(m.latencies, 0.5), 2) : '-',
          String(m.bad),
        ];
      }),
    ];
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
    const ratio = unitResult.rps / echo.rps;
    log(
      `issue 27 target 2: a logged-in editor's page view >= ${TARGET} x echo req/s per call: ` +
        `${ratio >= TARGET && unitResult.bad === 0 ? 'PASS' : 'MISS'} (${fmt(ratio, 3)})`,
    );
    log(`pageview at end: ${machineState()}; ${fmt((Date.now() - started) / 1000, 1)} s`);
  } finally {
    await stopAll();
  }
}
