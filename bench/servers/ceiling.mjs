// The ceiling: a bare node:http server answering every request with the
// Document bytes (BENCH_PAYLOAD_FILE). Prints its port on stdout.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const payload = readFileSync(process.env.BENCH_PAYLOAD_FILE);
const length = String(payload.length);

const server = createServer({ keepAlive: true }, (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': length });
  res.end(payload);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
