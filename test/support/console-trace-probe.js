// Runs with OTEL_TRACES_EXPORTER=console: turns tracing on as a service's entry does (register.js, before `http`
// loads), serves and makes one HTTP request, and logs a JSON line of its own. test/e2e/traces.test.ts checks that
// the output is one JSON object per line, spans included.
const { join } = require('node:path');

require(join(__dirname, '..', '..', 'services/shared/dist/tracing/register.js'));
const http = require('node:http');

const server = http.createServer((req, res) => res.end('traced'));
server.listen(0, '127.0.0.1', () => {
  http.get(`http://127.0.0.1:${server.address().port}/probe`, (res) => {
    res.resume();
    res.on('end', () => {
      process.stdout.write(JSON.stringify({ level: 30, msg: 'probe done' }) + '\n');
      server.close();
    });
  });
});
