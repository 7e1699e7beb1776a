import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
// The SDK's own reading of OTEL_TRACES_EXPORTER, for the exporters other than `console` (not in its index).
import { getSpanProcessorsFromEnv } from '@opentelemetry/sdk-node/build/src/utils';
import { JsonLineSpanExporter } from './json-line-exporter';
import { markTracingStarted } from './spans';

export interface TracingOptions {
  /** `service.name` when OTEL_SERVICE_NAME does not set it. */
  serviceName: string;
  /** Instead of the exporters the OTEL_* variables name (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

/**
 * Starts the OpenTelemetry SDK with the HTTP, Express, gRPC, AMQP and MongoDB instrumentations; everything else
 * (exporter, endpoint, sampler, resource) comes from the standard OTEL_* variables. Must run before those modules
 * are loaded: see register.ts.
 */
export function startTracing(options: TracingOptions): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || options.serviceName,
    spanProcessors: options.spanProcessors ?? spanProcessorsFromEnv(),
    instrumentations: [
      // Probes, scrapes and long-lived watches are not traced.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch', 'WatchInvalidations'] }),
      new AmqplibInstrumentation(),
      // Never the query's values: they may hold user data.
      new MongoDBInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  markTracingStarted();
  return sdk;
}

/**
 * The exporters OTEL_TRACES_EXPORTER names, with `console` as one JSON line per span (JsonLineSpanExporter) instead
 * of the SDK's multi-line objects; undefined (the SDK reads the variables itself) when `console` is not named.
 */
export function spanProcessorsFromEnv(): SpanProcessor[] | undefined {
  const env = process.env;
  const names = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase());
  if (!names.includes('console')) return undefined;
  const processors: SpanProcessor[] = [new SimpleSpanProcessor(new JsonLineSpanExporter())];
  const others = names.filter((name) => name && name !== 'console' && name !== 'none');
  if (others.length === 0) return processors;
  // The SDK reads the list from the environment only: it is shown the others for the length of the call.
  const named = env.OTEL_TRACES_EXPORTER;
  env.OTEL_TRACES_EXPORTER = others.join(',');
  try {
    return [...processors, ...getSpanProcessorsFromEnv(undefined)];
  } finally {
    env.OTEL_TRACES_EXPORTER = named;
  }
}
