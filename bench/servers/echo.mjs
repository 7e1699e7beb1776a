// The echo floor: a minimal express app making one grpc-js unary call per
// request, with the real envelope contract (cms.common.v1.HttpRequest ->
// HttpResponse through ContentService.Handle, loaded by the real `protos()`),
// to a gRPC server in this same process (as in the embedded mode) whose
// Handle returns the Document bytes (BENCH_PAYLOAD_FILE) without any store.
// Same helpers as the gateway and the services: createClient, callUnary,
// startGrpcServer, unary. Prints its HTTP port on stdout.
//
// ECHO_SERVICE_PROOF=off (bench/service-proof.mjs only) serves the same call without the service proof: a plain
// grpc-js server (no requireServiceProof) and a client without the proof interceptor, to measure what the proof
// costs. Nothing outside the benchmarks can switch the proof off.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(fileURLToPath(new URL('../../gateway/package.json', import.meta.url)));
const express = require('express');
const grpc = require('@grpc/grpc-js');
const {
  callUnary,
  clientChannelOptions,
  createClient,
  createLogger,
  protos,
  serverChannelOptions,
  startGrpcServer,
  unary,
} = require('@cms/shared');

const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const CALL_TIMEOUT_MS = 10_000;
const PUBLIC_URL = process.env.PUBLIC_URL ?? 'http://localhost:8080';
const EMPTY = Buffer.alloc(0);
const payload = readFileSync(process.env.BENCH_PAYLOAD_FILE);
const logger = createLogger('echo', process.env.LOG_LEVEL ?? 'warn');
const p = protos();

const implementation = { Handle: unary(logger, async () => ({ status: 200, headers: {}, body: payload })) };
const withProof = process.env.ECHO_SERVICE_PROOF !== 'off';
const grpcServer = withProof
  ? await startGrpcServer({
      address: '127.0.0.1:0',
      services: [
        { name: 'cms.content.v1.ContentService', definition: p.content.ContentService.service, implementation },
      ],
      healthCheck: async () => {},
      maxMessageBytes: MAX_MESSAGE_BYTES,
      logger,
    })
  : await startPlainServer();
const client = withProof
  ? createClient(p.content.ContentService, grpcServer.address, MAX_MESSAGE_BYTES)
  : new p.content.ContentService(
      grpcServer.address,
      grpc.credentials.createInsecure(),
      clientChannelOptions(MAX_MESSAGE_BYTES),
    );

/** The same service on grpc-js alone: no proof checked (startGrpcServer always checks it). */
async function startPlainServer() {
  const server = new grpc.Server(serverChannelOptions(MAX_MESSAGE_BYTES, 0));
  server.addService(p.content.ContentService.service, implementation);
  const port = await new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.tryShutdown(resolve)) };
}

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.set('query parser', false);
app.use(async (req, res) => {
  const requestId = randomUUID();
  res.setHeader('X-Request-Id', requestId);
  try {
    const queryStart = req.url.indexOf('?');
    const path = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
    const query = [];
    if (queryStart !== -1)
      for (const [key, value] of new URLSearchParams(req.url.slice(queryStart + 1))) query.push({ key, value });
    const request = {
      method: req.method,
      context_path: path.split('/').filter(Boolean).map(decodeURIComponent),
      endpoint: '',
      sub_path: [],
      query,
      body: EMPTY,
      public_url: PUBLIC_URL,
      request_id: requestId,
      headers: {},
    };
    const response = await callUnary((md, o, cb) => client.Handle(request, md, o, cb), {
      requestId,
      timeoutMs: CALL_TIMEOUT_MS,
    });
    res.status(response.status);
    for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
    if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
    res.end(response.body);
  } catch (error) {
    res.status(500).json({ type: 'InternalServerError', message: error.message });
  }
});

const server = createServer({ keepAlive: true }, app);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    client.close();
    grpcServer.stop(1000).then(() => process.exit(0));
  });
}
