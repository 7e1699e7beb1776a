import { join } from 'node:path';
import { baseEnv, ROOT, runNode } from '../support/processes';

/**
 * One trace follows a write (issue 17, item 7): the gateway's HTTP span, its gRPC call to content, content's
 * store writes, and search's handling of the event up to its catalog update, all under one trace id. Tracing
 * must start before the instrumented modules load, so the embedded suite runs in a process of its own
 * (test/support/trace-probe.js, on the built dist/) with an in-memory exporter.
 */

interface SpanRecord {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}
const SERVER = 1;
const CLIENT = 2;
const CONSUMER = 4;

describe('traces', () => {
  let spans: SpanRecord[];

  beforeAll(async () => {
    const run = await runNode('trace-probe', join(ROOT, 'test/support/trace-probe.js'), baseEnv(), 60_000);
    const line = run.output.split('\n').find((l) => l.startsWith('SPANS '));
    if (run.code !== 0 || !line) throw new Error(`the probe failed (${run.code}):\n${run.output.slice(-4000)}`);
    spans = JSON.parse(line.slice('SPANS '.length)) as SpanRecord[];
  }, 90_000);

  it('follow a write from the HTTP request through gRPC to the search index update', () => {
    const request = spans.find((s) => s.kind === SERVER && s.attributes['http.request.method'] === 'POST');
    expect(request).toBeDefined();
    const trace = spans.filter((s) => s.traceId === request!.traceId);
    const names = trace.map((s) => `${s.kind}:${s.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        `${CLIENT}:grpc.cms.content.v1.ContentService/Handle`,
        `${SERVER}:grpc.cms.content.v1.ContentService/Handle`,
        `${CONSUMER}:search process`,
      ]),
    );
    // Content stored the object, and search, handling its event, updated its catalog: children of the request.
    expect(trace.some((s) => s.name === 'store insertOne' && s.attributes['cms.store'] === 'content')).toBe(true);
    const consumer = trace.find((s) => s.name === 'search process')!;
    expect(consumer.attributes).toMatchObject({ 'cms.group': 'search', 'messaging.destination.name': 'content.added' });
    expect(
      trace.some(
        (s) =>
          s.parentSpanId === consumer.spanId &&
          s.attributes['cms.store'] === 'search' &&
          s.attributes['db.collection.name'] === 'catalog' &&
          s.attributes['db.operation.name'] === 'updateOne',
      ),
    ).toBe(true);
    // Every span of the trace hangs from the request's.
    const ids = new Set(trace.map((s) => s.spanId));
    for (const span of trace) if (span !== request) expect(ids.has(span.parentSpanId!)).toBe(true);
  });

  it('never carry the written values or credentials in attributes', () => {
    const text = JSON.stringify(spans.map((s) => s.attributes));
    expect(text).not.toContain('Traced');
    expect(text).not.toMatch(/Basic |admin:admin/);
  });
});

describe('traces on the console', () => {
  it('are one JSON object per line, so the JSON log stays whole', async () => {
    const env = { ...baseEnv(), OTEL_TRACES_EXPORTER: 'console', OTEL_SERVICE_NAME: 'cms-probe' };
    const run = await runNode('console-trace-probe', join(ROOT, 'test/support/console-trace-probe.js'), env, 60_000);
    expect(run.code).toBe(0);
    const lines = run.output.split('\n').filter((line) => line.trim() !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line.slice(0, 200)}`);
      }
    });
    const spans = entries.filter((entry) => entry.msg === 'span');
    expect(spans.map((span) => [span.service, span.kind])).toEqual(
      expect.arrayContaining([
        ['cms-probe', 1],
        ['cms-probe', 2],
      ]),
    );
    expect(spans[0]).toEqual(expect.objectContaining({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/) }));
    expect(entries.some((entry) => entry.msg === 'probe done')).toBe(true);
  }, 90_000);
});
