/**
 * The process's Prometheus metrics (prom-client): one registry per process, so in the embedded mode the
 * gateway's `/metrics` shows every service in it. Every label takes values from a set the code fixes (endpoint
 * names, gRPC methods, event types, queue groups, collections); never a path, id or anything a client chose.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isEventType } from '../events/codec';

export const metricsRegistry = new Registry();

/** Seconds; from a cache hit to a slow write under load. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processMetrics = false;
/** CPU, memory, event loop, GC: started by the processes that expose `/metrics`, once. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

export const httpRequests = new Counter({
  name: 'cms_http_requests_total',
  help: 'HTTP requests answered by the gateway, by endpoint (the @ name), method and status',
  labelNames: ['endpoint', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'cms_http_request_duration_seconds',
  help: 'Time from request to the end of the response at the gateway, by endpoint, method and status',
  labelNames: ['endpoint', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const grpcServerDuration = new Histogram({
  name: 'cms_grpc_server_handling_seconds',
  help: 'Time a service takes to answer a gRPC call, by service, method and status code',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const grpcClientDuration = new Histogram({
  name: 'cms_grpc_client_handling_seconds',
  help: 'Time a gRPC call takes as its caller sees it, by service, method and status code',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** Set by the gateway's body budget (gateway/src/body.ts) as body bytes arrive and are given back. */
export const requestBodyBytesHeld = new Gauge({
  name: 'cms_gateway_request_body_bytes_held',
  help: 'Request body bytes the gateway holds (received, or inflated from a compressed body) until their answers are sent',
  registers: [metricsRegistry],
});

/** Request bodies the gateway refused while reading them, by reason (a fixed set: see gateway/src/body.ts). */
export const requestBodiesRefused = new Counter({
  name: 'cms_gateway_request_bodies_refused_total',
  help: 'Request bodies refused by the gateway as they arrived, by reason',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const outboxPending = new Gauge({
  name: 'cms_outbox_pending_documents',
  help: 'Documents whose events wait in their outbox, as the last relay sweep found them, by collection',
  labelNames: ['collection'] as const,
  registers: [metricsRegistry],
});

export const outboxRelayLag = new Histogram({
  name: 'cms_outbox_relay_lag_seconds',
  help: "Time from an event's write to its confirmed publish by the outbox relay, by collection",
  labelNames: ['collection'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
  registers: [metricsRegistry],
});

export const eventsPublished = new Counter({
  name: 'cms_events_published_total',
  help: 'Events confirmed by the bus, by event type',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});

export const eventsConsumed = new Counter({
  name: 'cms_events_consumed_total',
  help: "Events a consumer group's handler applied, by queue group",
  labelNames: ['group'] as const,
  registers: [metricsRegistry],
});

/**
 * From an event's write (its `occurredAt`, stamped as the write commits) to a consumer group's handler having
 * applied it: for the search group, how long a write takes to become searchable. Buckets fine below 100 ms.
 */
export const eventApplyLag = new Histogram({
  name: 'cms_event_apply_lag_seconds',
  help: "Time from an event's write to its handler having applied it, by queue group",
  labelNames: ['group'] as const,
  buckets: [
    0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.0175, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15,
    0.25, 0.5, 1, 2.5, 5, 15, 60, 300,
  ],
  registers: [metricsRegistry],
});

/** Observes `eventApplyLag` for an event `group` has just applied (an unreadable timestamp is left out). */
export function observeApplyLag(group: string, occurredAt: string): void {
  const written = Date.parse(occurredAt);
  if (!Number.isNaN(written)) eventApplyLag.observe({ group }, Math.max(0, Date.now() - written) / 1000);
}

export const eventsRetried = new Counter({
  name: 'cms_events_retried_total',
  help: 'Handler failures sent back for a later retry, by queue group',
  labelNames: ['group'] as const,
  registers: [metricsRegistry],
});

export const eventsDeadLettered = new Counter({
  name: 'cms_events_dead_lettered_total',
  help: 'Events dead-lettered, by queue group and reason (refused: did not decode; delivery_limit: kept failing)',
  labelNames: ['group', 'reason'] as const,
  registers: [metricsRegistry],
});

export const storeOperationDuration = new Histogram({
  name: 'cms_store_operation_duration_seconds',
  help: 'Time of one store operation, by store (the service), collection, operation and outcome',
  labelNames: ['store', 'collection', 'operation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** The Prometheus text of everything this process measures. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** HTTP methods as labels: the ones the API knows; anything else a client sent is `OTHER`. */
const METHOD_LABELS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
export function methodLabel(method: string): string {
  return METHOD_LABELS.has(method) ? method : 'OTHER';
}

/** An HTTP status as a label: a three-digit code, else `other`. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other';
}

/** An event type as a label: one the codec knows, else `unknown`. */
export function eventTypeLabel(type: string): string {
  return isEventType(type) ? type : 'unknown';
}

/** `/cms.content.v1.ContentService/GetByPath` → service and method labels (the path is a registered method's). */
export function grpcMethodLabels(path: string): { grpc_service: string; grpc_method: string } {
  const match = /^\/([\w.]{1,200})\/(\w{1,100})$/.exec(path);
  return match
    ? { grpc_service: match[1], grpc_method: match[2] }
    : { grpc_service: 'unknown', grpc_method: 'unknown' };
}

/** Seconds since a `process.hrtime.bigint()` reading. */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
