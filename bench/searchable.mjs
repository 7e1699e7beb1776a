// `node bench/run.mjs searchable`: how soon a write can be found by @search (issue 12), in the distributed mode:
// every service and the gateway in a process of its own (built dist/ entry points, embedded store per service in
// a temporary data folder), over RabbitMQ on a virtual host made for the run (rabbitmqctl) and deleted after it.
//
// Load: PATCHes of a Document's title as admin through the gateway, open loop at BENCH_SEARCHABLE_RATE writes/s
// (default 500): write i is issued at its planned time t0 + i/rate whether or not earlier ones have answered, over
// BENCH_CONNECTIONS keep-alive connections, round robin over PROBE_DOCS Documents in /probe (each one rewritten
// every PROBE_DOCS/rate s). Write i sets the title to "probe <run> <i>". The first BENCH_WARMUP s of writes are
// not measured; then BENCH_DURATION s are.
//
// What is measured, and how read-your-writes is kept out of it: @search normally waits (bounded) until the search
// service's queue is drained before it answers (services/search/src/api/search.ts, waitUntilDrained), so a search
// sent after a write would answer only once the write is indexed, and the wait would be measured instead of the
// index. Here the search process runs with READ_YOUR_WRITES_TIMEOUT_MS=0: the wait gives up at once and @search
// answers from the catalog as it is (the "catalog behind" warning this logs per search is why search runs at
// LOG_LEVEL=error). BENCH_SEARCHABLE_POLLERS (default 2) pollers run back to back, each a `GET /@search` with one
// `path.query=/probe/d<n>` per Document that has a write not yet seen (the POLL_DOCS waiting longest) and
// `path.depth=0`: the title in each item is the catalog's column, not content's current title, so a poll shows
// which write each Document's index entry holds.
//
//   write→searchable = (answer received of the first poll whose items hold write i's title)
//                      - (write i's own 200/204 answer received)
// That is an upper bound: a search answered with it by then. The index applied it after the send of the last
// poll that answered without it; `lower bound` reports that side of the bracket (the poll interval is the
// resolution, shown as poll RTT). Both sides are clamped at 0 (the index can be quicker than the write's answer).
// A write whose Document shows a later write first is `superseded` (not measured); one not seen within
// BENCH_SEARCHABLE_TIMEOUT_MS (default 10,000) after its answer is `never seen` (must be 0). After each phase the
// whole listing is polled until the index shows every answered write (reported: `index caught up`), so a backlog
// does not spill into the next phase.
//
// The verdict is on the search service's own figure: `cms_event_apply_lag_seconds{group="search"}` (its /metrics),
// from each event's write (`occurredAt`, stamped by the write path with the write, before it answers) to the search
// consumer having applied it to the catalog, i.e. from the write to the moment a search can find it. The
// histogram is read when the measured window starts and after the index has caught up; its difference covers the
// events applied in between (the measured writes, and the tail of the warm-up's). Quantiles are interpolated
// within its buckets (2.5 ms wide around 20 ms). The polls above check it from outside.
//
// Write latency is from the planned time to the answer (so a backlog on the client side counts). When the rate is
// not sustained (answered < 95% of planned), the part runs again at BENCH_SEARCHABLE_LOW_RATE (default: half the
// achieved rate, rounded down to 10 writes/s). Targets: write→searchable p50 <= 20 ms, p99 <= 100 ms.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ADMIN_AUTH,
  ROOT,
  fmt,
  freePort,
  log,
  machineState,
  numberEnv,
  quantile,
  sleep,
  startChild,
  stopAll,
  table,
  tempDir,
  createDatabase,
} from './lib.mjs';

const P50_TARGET_MS = 20;
const P99_TARGET_MS = 100;
const PROBE_DOCS = 250;
/** Writes in flight beyond which the schedule skips writes (counted) rather than queue without bound. */
const MAX_IN_FLIGHT = 2000;
const SUSTAINED = 0.95;
/** Probe Documents per poll at most: the ones whose writes have waited longest. */
const POLL_DOCS = 100;
/** How long the index may take, after the polling stops, to show every answered write. */
const CATCH_UP_TIMEOUT_MS = 180_000;
const READY_TIMEOUT_MS = 60_000;

const SERVICES = ['identity', 'content', 'search', 'discussion', 'config'];
/** Consumers before producers, the gateway last (as test/support/distributed-suite.ts). */
const START_ORDER = ['search', 'config', 'discussion', 'content', 'identity', 'gateway'];
const GRPC_ADDRESS_VARIABLE = {
  identity: 'IDENTITY_GRPC_ADDRESS',
  content: 'CONTENT_GRPC_ADDRESS',
  search: 'SEARCH_GRPC_ADDRESS',
  discussion: 'DISCUSSION_GRPC_ADDRESS',
  config: 'CONFIG_GRPC_ADDRESS',
};
const script = (name) => join(ROOT, name === 'gateway' ? 'gateway/dist/main.js' : `services/${name}/dist/main.js`);

/** A virtual host of the run's own, so nothing else on the broker sees or feeds its queues. */
export function makeVhost() {
  const base = new URL(process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672');
  const name = `cms-bench-${randomUUID().slice(0, 8)}`;
  execFileSync('rabbitmqctl', ['add_vhost', name], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', name, base.username || 'guest', '.*', '.*', '.*'], {
    stdio: 'ignore',
  });
  base.pathname = `/${encodeURIComponent(name)}`;
  return {
    name,
    url: base.toString(),
    dispose: () => execFileSync('rabbitmqctl', ['delete_vhost', name], { stdio: 'ignore' }),
  };
}

/**
 * The distributed suite on `engine`: each service on an embedded store of its own, or every one on one PostgreSQL
 * database or SQLite folder (`storeUrl`) with `searchReplicas` search processes competing on the search queue.
 * `nodeArgs` and `envOf(name)` go to each process (the stalls part's loop probe).
 */
export async function startSplitSuite(
  amqpUrl,
  { storeUrl, searchReplicas = 1, nodeArgs = [], envOf = () => ({}) } = {},
) {
  const dataDir = tempDir('bench-searchable-');
  const ports = [];
  for (let i = 0; i < SERVICES.length + 2; i++) ports.push(await freePort());
  const [gatewayPort, filesPort, ...grpcPorts] = ports;
  const searchMetricsPorts = [];
  for (let i = 0; i < searchReplicas; i++) searchMetricsPorts.push(await freePort());
  const address = Object.fromEntries(SERVICES.map((s, i) => [s, `127.0.0.1:${grpcPorts[i]}`]));
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const common = {
    SHUTDOWN_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'warn',
    METRICS_PORT: 'off',
    SERVICE_AUTH_KEY: randomBytes(32).toString('base64url'),
  };
  if (storeUrl) Object.assign(common, { STORE_URL: storeUrl, JWT_SECRET: `bench-${'x'.repeat(40)}` });
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key]) common[key] = process.env[key];
  const envs = {};
  for (const s of SERVICES) {
    envs[s] = { ...common, AMQP_URL: amqpUrl, [GRPC_ADDRESS_VARIABLE[s]]: address[s], DATA_DIR: join(dataDir, s) };
  }
  Object.assign(envs.identity, { ADMIN_PASSWORD: 'admin', CONFIG_ADDRESS: address.config });
  // READ_YOUR_WRITES_TIMEOUT_MS=0: @search answers from the catalog as it is (see the header).
  Object.assign(envs.search, {
    CONTENT_ADDRESS: address.content,
    DISCUSSION_ADDRESS: address.discussion,
    CONFIG_ADDRESS: address.config,
    READ_YOUR_WRITES_TIMEOUT_MS: '0',
    LOG_LEVEL: 'error',
    METRICS_PORT: String(searchMetricsPorts[0]),
    METRICS_HOST: '127.0.0.1',
  });
  Object.assign(envs.content, {
    IDENTITY_ADDRESS: address.identity,
    SEARCH_ADDRESS: address.search,
    CONFIG_ADDRESS: address.config,
    CONTENT_FILES_HTTP_ADDRESS: `127.0.0.1:${filesPort}`,
  });
  Object.assign(envs.config, { CONTENT_ADDRESS: address.content, IDENTITY_ADDRESS: address.identity });
  Object.assign(envs.discussion, {
    CONTENT_ADDRESS: address.content,
    IDENTITY_ADDRESS: address.identity,
    CONFIG_ADDRESS: address.config,
  });
  envs.gateway = {
    ...common,
    AMQP_URL: amqpUrl,
    HOST: '127.0.0.1',
    PORT: String(gatewayPort),
    PUBLIC_URL: baseUrl,
    GATEWAY_WORKERS: '0',
    CONTENT_ADDRESS: address.content,
    IDENTITY_ADDRESS: address.identity,
    SEARCH_ADDRESS: address.search,
    DISCUSSION_ADDRESS: address.discussion,
    CONFIG_ADDRESS: address.config,
    CONTENT_FILES_ADDRESS: `127.0.0.1:${filesPort}`,
  };
  const handles = START_ORDER.map((name) =>
    startChild(`searchable-${name}`, [script(name)], { ...envs[name], ...envOf(name) }, { nodeArgs }),
  );
  // Further search replicas: the same store and queue, a gRPC and metrics port of their own.
  for (let i = 1; i < searchReplicas; i++) {
    const env = {
      ...envs.search,
      SEARCH_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
      METRICS_PORT: String(searchMetricsPorts[i]),
    };
    handles.push(
      startChild(
        `searchable-search-${i + 1}`,
        [script('search')],
        { ...env, ...envOf(`search-${i + 1}`) },
        { nodeArgs },
      ),
    );
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last;
  for (;;) {
    const dead = handles.find((h) => h.exited());
    if (dead) throw new Error(`${dead.name} exited during start-up\n${dead.describe()}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      last = `${response.status} ${await response.text()}`;
      if (response.status === 200) break;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `/readyz not 200 within ${READY_TIMEOUT_MS} ms (last: ${last})\n${handles.map((h) => h.describe()).join('\n')}`,
      );
    }
    await sleep(200);
  }
  return {
    baseUrl,
    handles,
    searchMetricsUrls: searchMetricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`),
  };
}

const LAG_BUCKET = /^cms_event_apply_lag_seconds_bucket\{le="([^"]+)",group="search"\} (\d+(?:\.\d+)?)$/;

/** The search group's apply-lag histogram, summed over its replicas: cumulative counts by upper bound (seconds). */
async function scrapeApplyLag(metricsUrls) {
  const counts = new Map();
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const line of text.split('\n')) {
      const m = LAG_BUCKET.exec(line);
      if (!m) continue;
      const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
      counts.set(le, (counts.get(le) ?? 0) + Number(m[2]));
    }
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/** `after - before`, and its q-quantile in ms (linear within the bucket; null when empty or beyond the last bound). */
function lagQuantiles(before, after, qs) {
  const counts = after.map(([le, n], i) => [le, n - (before[i]?.[1] ?? 0)]);
  const total = counts.length ? counts[counts.length - 1][1] : 0;
  const quantileOf = (q) => {
    if (total === 0) return null;
    const rank = q * total;
    let lower = 0;
    let below = 0;
    for (const [le, n] of counts) {
      if (n >= rank) {
        if (le === Infinity) return null;
        return (lower + ((rank - below) / Math.max(1, n - below)) * (le - lower)) * 1000;
      }
      lower = le;
      below = n;
    }
    return null;
  };
  return { total, values: qs.map(quantileOf) };
}

/** One request on `agent`; resolves with status, body text and the performance.now() of the answer. */
function send(agent, url, { method = 'GET', body, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: {
          Authorization: ADMIN_AUTH,
          Accept: 'application/json',
          'Cache-Control': 'no-cache',
          ...(payload === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), at: performance.now() }),
        );
        res.on('error', (error) => resolve({ status: 0, text: String(error), at: performance.now() }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, text: String(error), at: performance.now() }));
    req.end(payload);
  });
}

async function mustSend(agent, url, options, expected) {
  const response = await send(agent, url, options);
  if (!expected.includes(response.status)) {
    throw new Error(`${options.method ?? 'GET'} ${url} answered ${response.status}: ${response.text.slice(0, 300)}`);
  }
  return response;
}

const listingUrl = (baseUrl) => `${baseUrl}/@search?path.query=%2Fprobe&path.depth=1&b_size=${PROBE_DOCS}`;

/** A search for exactly these probe Documents (`path.depth=0`, one `path.query` each). */
const docsUrl = (baseUrl, docs) =>
  `${baseUrl}/@search?${docs.map((d) => `path.query=%2Fprobe%2Fd${d}`).join('&')}&path.depth=0&b_size=${docs.length}`;

/** The write number each probe Document's catalog entry shows (-1 for another run's title). */
function shownWrites(text, tag) {
  const shown = new Map();
  for (const item of JSON.parse(text).items ?? []) {
    const doc = Number(/\/probe\/d(\d+)$/.exec(item['@id'])?.[1]);
    const match = /^probe (\w+) (\d+)$/.exec(item.title ?? '');
    if (Number.isInteger(doc)) shown.set(doc, match && match[1] === tag ? Number(match[2]) : -1);
  }
  return shown;
}

/** Polls the whole listing until every Document shows `expected` (its last answered write) or later. */
async function untilCaughtUp(baseUrl, tag, expected, timeoutMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  try {
    while (performance.now() - started < timeoutMs) {
      const response = await mustSend(agent, listingUrl(baseUrl), {}, [200]);
      const shown = shownWrites(response.text, tag);
      if ([...expected].every(([doc, i]) => (shown.get(doc) ?? -1) >= i)) return performance.now() - started;
      await sleep(50);
    }
    return NaN;
  } finally {
    agent.destroy();
  }
}

/** The /probe folder and its Documents, then waits until the catalog holds all of them. */
async function seedProbes(baseUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  await mustSend(
    agent,
    `${baseUrl}/`,
    { method: 'POST', body: { '@type': 'Folder', id: 'probe', title: 'Probe' } },
    [201],
  );
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < PROBE_DOCS; i = next++) {
      await mustSend(
        agent,
        `${baseUrl}/probe`,
        { method: 'POST', body: { '@type': 'Document', id: `d${i}`, title: 'probe seed' } },
        [201],
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await mustSend(agent, listingUrl(baseUrl), {}, [200]);
    if (JSON.parse(response.text).items_total === PROBE_DOCS) break;
    if (Date.now() > deadline) throw new Error(`the catalog did not index the ${PROBE_DOCS} probe Documents in 60 s`);
    await sleep(100);
  }
  agent.destroy();
}

/**
 * One phase at `rate`: schedules the writes, polls the catalog until every measured write is seen, superseded or
 * timed out, and answers the figures.
 */
async function runPhase(baseUrl, { rate, warmup, duration, connections, pollers, timeoutMs, searchMetricsUrls }) {
  const tag = randomUUID().slice(0, 8);
  const writeAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * (warmup + duration));
  const firstMeasured = Math.round(rate * warmup);
  /** Per write: planned, answeredAt, status, seenAt, lastMissSent, superseded. */
  const writes = [];
  /** Per Document, its writes not yet settled (seen, superseded or failed), oldest first. */
  const pendingOf = Array.from({ length: PROBE_DOCS }, () => []);
  let inFlight = 0;
  const t0 = performance.now() + 50;

  const issue = (i) => {
    const doc = i % PROBE_DOCS;
    const write = {
      i,
      doc,
      planned: t0 + (i * 1000) / rate,
      answeredAt: NaN,
      status: 0,
      seenAt: NaN,
      lastMissSent: -Infinity,
      superseded: false,
      settled: false,
    };
    writes[i] = write;
    if (inFlight >= MAX_IN_FLIGHT) {
      write.status = -1;
      write.settled = true;
      return;
    }
    inFlight++;
    pendingOf[doc].push(write);
    send(writeAgent, `${baseUrl}/probe/d${doc}`, { method: 'PATCH', body: { title: `probe ${tag} ${i}` } }).then(
      (r) => {
        inFlight--;
        write.answeredAt = r.at;
        write.status = r.status;
        if (r.status < 200 || r.status >= 300) write.settled = true;
      },
    );
  };

  // Open loop: every tick issues all writes whose planned time has come.
  const scheduled = new Promise((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && t0 + (next * 1000) / rate <= now) issue(next++);
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });

  // The search service's histogram as the measured window starts.
  const lagAtWindow = new Promise((resolve, reject) =>
    setTimeout(
      () => scrapeApplyLag(searchMetricsUrls).then(resolve, reject),
      Math.max(0, t0 + warmup * 1000 - performance.now()),
    ),
  );

  const pollRtts = [];
  let stopPolling = false;
  let pollErrors = 0;
  const applyPoll = (sent, docs, r) => {
    const shown = shownWrites(r.text, tag);
    for (const doc of docs) {
      const pending = pendingOf[doc];
      const last = shown.get(doc) ?? -1;
      while (pending.length > 0 && (pending[0].settled || pending[0].i <= last)) {
        const write = pending.shift();
        if (write.settled) continue;
        write.settled = true;
        if (write.i === last) write.seenAt = r.at;
        else write.superseded = true;
      }
      // The poll answered without the rest: the index had not applied them when it was sent.
      for (const write of pending) if (sent > write.lastMissSent) write.lastMissSent = sent;
    }
  };
  /** The Documents with writes not yet seen, those waiting longest first. */
  const docsToPoll = () => {
    const docs = [];
    for (let doc = 0; doc < PROBE_DOCS; doc++) {
      const oldest = pendingOf[doc].find((w) => !w.settled);
      if (oldest) docs.push([oldest.i, doc]);
    }
    return docs
      .sort((a, b) => a[0] - b[0])
      .slice(0, POLL_DOCS)
      .map(([, doc]) => doc);
  };
  const poller = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (!stopPolling) {
      const docs = docsToPoll();
      if (docs.length === 0) {
        await sleep(1);
        continue;
      }
      const sent = performance.now();
      const r = await send(agent, docsUrl(baseUrl, docs), { timeoutMs: 10_000 });
      if (r.status !== 200) {
        pollErrors++;
        await sleep(10);
        continue;
      }
      pollRtts.push(r.at - sent);
      applyPoll(sent, docs, r);
    }
    agent.destroy();
  };
  const polling = Array.from({ length: pollers }, async (_, k) => {
    await sleep(k * 3);
    return poller();
  });

  await scheduled;
  const scheduleEnd = performance.now();
  // Until every write has answered, and every answered one is settled or past its timeout.
  for (;;) {
    const now = performance.now();
    const open = writes.filter((w) => !w.settled && (Number.isNaN(w.answeredAt) || now - w.answeredAt < timeoutMs));
    if (open.length === 0 && inFlight === 0) break;
    await sleep(20);
  }
  stopPolling = true;
  await Promise.all(polling);
  writeAgent.destroy();
  // Before the figures (and a next phase): the index must have caught up with every answered write.
  const expected = new Map();
  for (const w of writes)
    if (w && w.status >= 200 && w.status < 300) expected.set(w.doc, Math.max(w.i, expected.get(w.doc) ?? -1));
  const caughtUpMs = await untilCaughtUp(baseUrl, tag, expected, CATCH_UP_TIMEOUT_MS);
  const applyLag = lagQuantiles(await lagAtWindow, await scrapeApplyLag(searchMetricsUrls), [0.5, 0.99]);

  const measured = writes.slice(firstMeasured);
  const windowStart = t0 + (firstMeasured * 1000) / rate;
  const answered = measured.filter((w) => w.status >= 200 && w.status < 300);
  const lastAnswer = Math.max(...answered.map((w) => w.answeredAt));
  const seen = answered.filter((w) => !Number.isNaN(w.seenAt));
  const sorted = (values) => values.sort((a, b) => a - b);
  const upper = sorted(seen.map((w) => Math.max(0, w.seenAt - w.answeredAt)));
  const lower = sorted(seen.map((w) => Math.max(0, w.lastMissSent - w.answeredAt)));
  const writeLatency = sorted(answered.map((w) => w.answeredAt - w.planned));
  pollRtts.sort((a, b) => a - b);
  return {
    rate,
    planned: measured.length,
    answered: answered.length,
    failed: measured.filter((w) => w.status === 0 || (w.status >= 300 && w.status !== -1)).length,
    skipped: measured.filter((w) => w.status === -1).length,
    achieved: (answered.length * 1000) / Math.max(1, Math.max(lastAnswer, scheduleEnd) - windowStart),
    writeLatency,
    upper,
    lower,
    superseded: answered.filter((w) => w.superseded).length,
    neverSeen: answered.filter((w) => Number.isNaN(w.seenAt) && !w.superseded).length,
    polls: pollRtts.length,
    pollErrors,
    pollRtts,
    caughtUpMs,
    applyLag,
  };
}

function report(phase) {
  const ms = (values, q) => fmt(quantile(values, q), 1);
  const [p50, p99] = phase.applyLag.values;
  const lagMs = (v) => (v === null ? 'beyond the buckets' : fmt(v, 1));
  const verdict = (ok) => (ok && phase.neverSeen === 0 && phase.applyLag.total > 0 ? 'PASS' : 'MISS');
  const rows = [
    [`writes planned / answered 2xx`, `${phase.planned} / ${phase.answered}`, '-', '-'],
    [
      `failed / skipped (backlog > ${MAX_IN_FLIGHT})`,
      `${phase.failed} / ${phase.skipped}`,
      '0',
      phase.failed + phase.skipped === 0 ? 'PASS' : 'MISS',
    ],
    [
      `achieved write rate (/s)`,
      fmt(phase.achieved),
      `${phase.rate}`,
      phase.achieved >= SUSTAINED * phase.rate ? 'PASS' : 'MISS',
    ],
    [`write latency p50 / p99 ms`, `${ms(phase.writeLatency, 0.5)} / ${ms(phase.writeLatency, 0.99)}`, '-', '-'],
    [`events applied in the window (search)`, `${phase.applyLag.total}`, '-', '-'],
    [
      `write→searchable p50 ms (commit → indexed)`,
      lagMs(p50),
      `<= ${P50_TARGET_MS}`,
      verdict(p50 !== null && p50 <= P50_TARGET_MS),
    ],
    [
      `write→searchable p99 ms (commit → indexed)`,
      lagMs(p99),
      `<= ${P99_TARGET_MS}`,
      verdict(p99 !== null && p99 <= P99_TARGET_MS),
    ],
    [
      `  seen by a poll, after the write's answer: p50 / p99 / max ms`,
      `${ms(phase.upper, 0.5)} / ${ms(phase.upper, 0.99)} / ${ms(phase.upper, 1)}`,
      '-',
      '-',
    ],
    [`  not yet seen, last poll sent: p50 / p99 ms`, `${ms(phase.lower, 0.5)} / ${ms(phase.lower, 0.99)}`, '-', '-'],
    [
      `measured / superseded / never seen`,
      `${phase.upper.length} / ${phase.superseded} / ${phase.neverSeen}`,
      'never seen 0',
      phase.neverSeen === 0 ? 'PASS' : 'MISS',
    ],
    [
      `index caught up, after polling stopped`,
      Number.isNaN(phase.caughtUpMs) ? `not in ${CATCH_UP_TIMEOUT_MS / 1000} s` : `${fmt(phase.caughtUpMs)} ms`,
      '-',
      '-',
    ],
    [
      `polls (errors), RTT p50 / p99 ms`,
      `${phase.polls} (${phase.pollErrors}), ${ms(phase.pollRtts, 0.5)} / ${ms(phase.pollRtts, 0.99)}`,
      '-',
      '-',
    ],
  ];
  log(table([`at ${phase.rate} writes/s`, 'result', 'target', 'verdict'], rows));
}

/** Engines of the run (`BENCH_ENGINES`, default both): each runs the part once, and a summary puts them side by side. */
export function benchEngines() {
  const names = (process.env.BENCH_ENGINES ?? 'embedded,postgres').split(',').map((name) => name.trim());
  for (const name of names) if (!['embedded', 'postgres'].includes(name)) throw new Error(`unknown engine ${name}`);
  return names;
}

export async function runSearchable(settings) {
  const results = [];
  for (const engine of benchEngines()) results.push([engine, await runSearchableOn(engine, settings)]);
  if (results.length > 1) {
    const lag = (phase, i) => (phase.applyLag.values[i] === null ? 'beyond' : fmt(phase.applyLag.values[i], 1));
    log(
      table(
        ['engine', 'search replicas', 'writes/s achieved', 'write p50 ms', 'searchable p50 / p99 ms', 'never seen'],
        results.map(([engine, phase]) => [
          engine,
          engine === 'postgres' ? '2' : '1',
          fmt(phase.achieved),
          fmt(quantile(phase.writeLatency, 0.5), 1),
          `${lag(phase, 0)} / ${lag(phase, 1)}`,
          String(phase.neverSeen),
        ]),
      ),
    );
  }
}

async function runSearchableOn(engine, settings) {
  const rate = numberEnv('BENCH_SEARCHABLE_RATE', 500);
  const pollers = Math.round(numberEnv('BENCH_SEARCHABLE_POLLERS', 2));
  const timeoutMs = numberEnv('BENCH_SEARCHABLE_TIMEOUT_MS', 10_000);
  const searchReplicas = engine === 'postgres' ? 2 : 1;
  log(`searchable (${engine}): ${machineState()}`);
  log(
    `distributed mode (${5 + searchReplicas} service processes and a gateway, RabbitMQ, ` +
      `${engine === 'postgres' ? 'one PostgreSQL database, two search replicas' : 'embedded stores'}); PATCH title ` +
      `at ${rate}/s open loop over ${settings.connections} conn, ${settings.warmup} s warm-up + ` +
      `${settings.duration} s measured, ${pollers} pollers`,
  );
  const vhost = makeVhost();
  const database = engine === 'postgres' ? await createDatabase('bench_searchable') : undefined;
  try {
    const { baseUrl, searchMetricsUrls } = await startSplitSuite(vhost.url, {
      storeUrl: database?.url,
      searchReplicas,
    });
    await seedProbes(baseUrl);
    const phase = {
      warmup: settings.warmup,
      duration: settings.duration,
      connections: settings.connections,
      pollers,
      timeoutMs,
      searchMetricsUrls,
    };
    const main = await runPhase(baseUrl, { ...phase, rate });
    report(main);
    let last = main;
    if (main.achieved < SUSTAINED * rate) {
      const low = numberEnv('BENCH_SEARCHABLE_LOW_RATE', Math.max(10, Math.floor(main.achieved / 20) * 10));
      log(`${rate} writes/s not sustained (achieved ${fmt(main.achieved)}); again at ${low} writes/s`);
      last = await runPhase(baseUrl, { ...phase, rate: low });
      report(last);
    }
    log(`machine at end: ${machineState()}`);
    return main.achieved >= SUSTAINED * rate ? main : last;
  } finally {
    await stopAll();
    vhost.dispose();
    await database?.drop();
  }
}
