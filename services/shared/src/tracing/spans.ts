import { context, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';

const tracer = trace.getTracer('cms');
/** Set by startTracing: until then spans are skipped outright, so tracing off costs nothing on hot paths. */
let started = false;

export function markTracingStarted(): void {
  started = true;
}

/** The trace context at this point (what a message carries to its consumer). */
export function activeTraceContext(): Context {
  return context.active();
}

/** Runs `work` in its own span under `parent` (the root when absent), ended when `work` settles. */
export function inSpan<T>(
  name: string,
  kind: 'internal' | 'consumer',
  attributes: Record<string, string>,
  work: () => Promise<T>,
  parent?: Context,
): Promise<T> {
  if (!started) return work();
  const options = { kind: kind === 'consumer' ? SpanKind.CONSUMER : SpanKind.INTERNAL, attributes };
  return tracer.startActiveSpan(name, options, parent ?? context.active(), async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Names what the current request addresses on its span (the gateway's HTTP server span). */
export function setActiveSpanAttribute(name: string, value: string): void {
  trace.getActiveSpan()?.setAttribute(name, value);
}
