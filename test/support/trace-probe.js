// Runs the embedded suite (built dist/) with tracing on and an in-memory exporter, makes one write through the
// gateway, and prints the spans it recorded as one JSON line `SPANS [...]`: the process test/e2e/traces.test.ts
// inspects. Tracing has to start before the instrumented modules load, which jest's module loader would bypass.
const { mkdtempSync, rmSync } = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const fromShared = createRequire(join(root, 'services/shared/package.json'));
const { InMemorySpanExporter, SimpleSpanProcessor } = fromShared('@opentelemetry/sdk-trace-base');
const { startTracing } = require(join(root, 'services/shared/dist/tracing/tracing.js'));

const exporter = new InMemorySpanExporter();
startTracing({ serviceName: 'cms-embedded', spanProcessors: [new SimpleSpanProcessor(exporter)] });
const { startSuite } = require(join(root, 'services/embedded/dist/suite.js'));

const main = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-traces-'));
  const suite = await startSuite({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  try {
    exporter.reset();
    const response = await fetch(`http://127.0.0.1:${suite.port}/`, {
      method: 'POST',
      headers: {
        Authorization: 'Basic ' + Buffer.from('admin:admin').toString('base64'),
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ '@type': 'Document', id: 'traced', title: 'Traced' }),
    });
    if (response.status !== 201) throw new Error(`the write answered ${response.status}`);
  } finally {
    await suite.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const spans = exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId,
    attributes: span.attributes,
  }));
  // The in-memory exporter has every span already; the SDK's own shutdown would only add seconds.
  process.stdout.write(`SPANS ${JSON.stringify(spans)}\n`, () => process.exit(0));
};
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
