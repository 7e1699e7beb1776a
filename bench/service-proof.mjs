// `node bench/run.mjs proof`: what the service proof (issue 25: every gRPC call carries an HMAC of its method,
// request id, client address, time and request bytes, services/shared/src/grpc/service-auth.ts) costs.
//
//   per call     in this process, the work the proof adds to one call of ContentService.Handle with a GET's
//                request: the client serializes the request once more and hashes it, signs (HMAC-SHA-256); the
//                server hashes the bytes it received and checks the HMAC. Microseconds per call, and the same with a
//                64 KiB body (a PATCH of a large page).
//   echo floor   bench/servers/echo.mjs (express -> one gRPC unary Handle -> the Document bytes) as the suite runs
//                it (startGrpcServer and createClient: proof signed and checked) and with ECHO_SERVICE_PROOF=off
//                (plain grpc-js server and client), interleaved rounds, median by req/s: the before and after of
//                the proof at the floor of this design.
//   real path    the gRPC calls one gateway request makes (cms_grpc_client_handling_seconds_count of /metrics
//                before and after a load, over the requests answered) for an uncached anonymous GET and a Basic
//                GET of the Document, on the embedded mode (GATEWAY_WORKERS=0): calls per request x the cost per
//                call against the CPU time one request takes there (the process's CPU over the requests).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_AUTH,
  DOCUMENT_PATH,
  fmt,
  loadWithLatencies,
  log,
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

const require = createRequire(fileURLToPath(new URL('../gateway/package.json', import.meta.url)));
const { checkServiceProof, protos, signServiceProof } = require('@cms/shared');

const METHOD = '/cms.content.v1.ContentService/Handle';

/** Microseconds of proof work per call (client and server side together), for a request with `bodyBytes`. */
function proofMicroseconds(bodyBytes, iterations) {
  const serialize = protos().content.ContentService.service.Handle.requestSerialize;
  const message = {
    method: bodyBytes ? 'PATCH' : 'GET',
    context_path: ['bench', 'doc'],
    endpoint: '',
    sub_path: [],
    query: [],
    body: Buffer.alloc(bodyBytes, 0x61),
    public_url: 'http://localhost:8080',
    request_id: '2b7f3c1e-9d7a-4c55-8f0e-3f1d2a6b9c40',
    headers: { accept: 'application/json' },
  };
  const digest = (bytes) => createHash('sha256').update(bytes).digest('base64url');
  const claims = { method: METHOD, requestId: message.request_id, clientAddress: '127.0.0.1' };
  let refused = 0;
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      // Client: the interceptor serializes the message to hash it, then signs.
      const proof = signServiceProof({ ...claims, issuedAt: Date.now(), bodyDigest: digest(serialize(message)) });
      // Server: the bytes as received are hashed when deserialized, then the proof is checked.
      if (checkServiceProof(proof, { ...claims, bodyDigest: digest(serialize(message)) }) !== undefined) refused++;
    }
  };
  run(Math.ceil(iterations / 10)); // warm-up
  // The server's hash is of the bytes it received, which it has anyway: the second serialize above is not its cost.
  const serializeOnly = () => {
    const started = process.cpuUsage();
    for (let i = 0; i < iterations; i++) serialize(message);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / iterations;
  };
  const started = process.cpuUsage();
  run(iterations);
  const used = process.cpuUsage(started);
  if (refused) throw new Error(`${refused} proofs were refused`);
  return (used.user + used.system) / iterations - serializeOnly();
}

/** CPU microseconds of a process (Linux /proc/<pid>/stat: utime + stime in clock ticks of 10 ms). */
async function processCpuMicroseconds(pid) {
  const { readFileSync } = await import('node:fs');
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function grpcClientCalls(baseUrl) {
  const text = (await request(`${baseUrl}/metrics`)).bytes.toString('utf8');
  let total = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('cms_grpc_client_handling_seconds_count'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

export async function runServiceProof(settings) {
  log(`proof: ${machineState()}`);
  const iterations = 20_000;
  const small = proofMicroseconds(0, iterations);
  const large = proofMicroseconds(64 * 1024, 2_000);
  log(
    table(
      ['proof work per call (CPU, client + server)', 'us'],
      [
        ["GET's request (no body)", fmt(small, 1)],
        ['request with a 64 KiB body', fmt(large, 1)],
      ],
    ),
  );
  try {
    const suite = await startEmbedded('proof-suite', { dataDir: tempDir('bench-proof-'), workers: 0 });
    const payload = await seedDocument(suite.baseUrl);
    const payloadFile = join(tempDir('bench-proof-payload-'), 'document.json');
    writeFileSync(payloadFile, payload);
    const withProof = await startScriptServer('proof-echo-on', 'echo.mjs', payloadFile);
    process.env.ECHO_SERVICE_PROOF = 'off';
    const withoutProof = await startScriptServer('proof-echo-off', 'echo.mjs', payloadFile);
    delete process.env.ECHO_SERVICE_PROOF;

    const load = { connections: settings.connections, duration: settings.duration };
    const rounds = [];
    for (let round = 0; round < settings.rounds; round++) {
      const measured = {};
      for (const [name, server] of [
        ['on', withProof],
        ['off', withoutProof],
      ]) {
        const result = await loadWithLatencies(`${server.baseUrl}${DOCUMENT_PATH}`, load);
        measured[name] = { rps: result.requests.average, p50: quantile(result.latencies, 0.5), bad: result.non2xx };
      }
      rounds.push(measured);
    }
    const medianOf = (name) =>
      rounds.map((r) => r[name]).sort((a, b) => a.rps - b.rps)[Math.floor((rounds.length - 1) / 2)];
    const on = medianOf('on');
    const off = medianOf('off');
    log(
      table(
        [
          `echo floor, ${settings.connections} conn, ${settings.duration} s, median of ${settings.rounds}`,
          'req/s',
          'p50 ms',
          'bad',
        ],
        [
          ['without the proof (plain grpc-js)', fmt(off.rps), fmt(off.p50, 2), String(off.bad)],
          ['with the proof (as the suite runs)', fmt(on.rps), fmt(on.p50, 2), String(on.bad)],
          ['with / without', fmt(on.rps / off.rps, 3), fmt(on.p50 / off.p50, 3), '-'],
        ],
      ),
    );

    const rows = [];
    for (const [name, headers] of [
      ['anonymous GET, uncached', { 'Cache-Control': 'no-cache', Accept: 'application/json' }],
      ['Basic GET', { Authorization: ADMIN_AUTH, 'Cache-Control': 'no-cache', Accept: 'application/json' }],
    ]) {
      const callsBefore = await grpcClientCalls(suite.baseUrl);
      const cpuBefore = await processCpuMicroseconds(suite.pid);
      const result = await loadWithLatencies(`${suite.baseUrl}${DOCUMENT_PATH}`, { ...load, headers });
      const cpu = (await processCpuMicroseconds(suite.pid)) - cpuBefore;
      // The /metrics read itself makes no gRPC call; every answered request counts, whatever its status.
      const requests = result.requests.total;
      const calls = ((await grpcClientCalls(suite.baseUrl)) - callsBefore) / requests;
      const perRequest = cpu / requests;
      rows.push([
        name,
        fmt(calls, 2),
        fmt(perRequest, 0),
        fmt(calls * small, 1),
        `${fmt((100 * calls * small) / perRequest, 1)} %`,
      ]);
    }
    log(table(['real path (embedded, 0 workers)', 'gRPC calls/req', 'CPU us/req', 'proof us/req', 'share'], rows));
    log(`proof at end: ${machineState()}`);
  } finally {
    await stopAll();
  }
}
