/**
 * `OTEL_TRACES_EXPORTER=console` without breaking the JSON log: the SDK's own console exporter prints each span with
 * `console.dir`, an object over many lines that a log shipper reading one JSON object per line takes apart. This
 * one writes each finished span as one JSON line on the same stream as the process's log, with `msg: "span"`.
 */
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { core } from '@opentelemetry/sdk-node';

const { ExportResultCode, hrTimeToMicroseconds } = core;

export class JsonLineSpanExporter implements SpanExporter {
  constructor(private readonly out: NodeJS.WritableStream = process.stdout) {}

  export(spans: ReadableSpan[], done: (result: core.ExportResult) => void): void {
    const lines = spans.map((span) => JSON.stringify(spanLine(span)) + '\n').join('');
    this.out.write(lines, (error) => done({ code: error ? ExportResultCode.FAILED : ExportResultCode.SUCCESS }));
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** What the SDK's console exporter shows of a span, as one flat object (times in microseconds, as it gives them). */
function spanLine(span: ReadableSpan) {
  const context = span.spanContext();
  return {
    msg: 'span',
    time: Math.round(hrTimeToMicroseconds(span.startTime) / 1000),
    service: span.resource.attributes['service.name'],
    name: span.name,
    kind: span.kind,
    traceId: context.traceId,
    id: context.spanId,
    parentId: span.parentSpanContext?.spanId,
    timestamp: hrTimeToMicroseconds(span.startTime),
    duration: hrTimeToMicroseconds(span.duration),
    attributes: span.attributes,
    status: span.status,
    events: span.events.map((event) => ({
      name: event.name,
      attributes: event.attributes,
      time: hrTimeToMicroseconds(event.time),
    })),
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
  };
}
