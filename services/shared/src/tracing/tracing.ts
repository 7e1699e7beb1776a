import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
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
    spanProcessors: options.spanProcessors,
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
