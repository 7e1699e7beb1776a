import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from '../logging/logger';
import { grpcMethodLabels, grpcServerDuration, secondsSince } from '../metrics/metrics';
import { failStream, toServiceError } from './errors';
import { serverChannelOptions } from './loader';
import { requireServiceProof } from './service-auth';

export const REQUEST_ID_KEY = 'x-request-id';
/**
 * The `grpc.health.v1` service name of liveness: SERVING whenever the process answers at all (its event loop runs
 * the Check), whatever its store and broker do; a liveness probe asks this one, so an outage of a dependency takes
 * a process out of rotation (readiness, the overall name `''`) without restarting it.
 */
export const LIVENESS_SERVICE = 'liveness';
/** The HTTP client's address as the gateway saw it (socket peer, or X-Forwarded-For from trusted proxies). */
export const CLIENT_ADDRESS_KEY = 'x-client-address';
/** An IPv6 address with a zone is at most ~60 characters; anything longer or stranger is not an address. */
const CLIENT_ADDRESS = /^[0-9A-Za-z.:%_-]{1,100}$/;

export interface CallContext {
  requestId: string;
  /** Absent when the caller did not say (not called on behalf of an HTTP client). */
  clientAddress?: string;
  log: Logger;
}

export function requestIdOf(metadata: grpc.Metadata): string {
  const value = metadata.get(REQUEST_ID_KEY)[0];
  return typeof value === 'string' && value ? value : '-';
}

export function clientAddressOf(metadata: grpc.Metadata): string | undefined {
  const value = metadata.get(CLIENT_ADDRESS_KEY)[0];
  return typeof value === 'string' && CLIENT_ADDRESS.test(value) ? value : undefined;
}

/** Adapts an async handler to grpc-js: request id from metadata, errors mapped by `toServiceError`. */
export function unary<Req, Res>(
  log: Logger,
  handler: (request: Req, ctx: CallContext) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const requestId = requestIdOf(call.metadata);
    const ctx = {
      requestId,
      clientAddress: clientAddressOf(call.metadata),
      get log() {
        return log.child({ requestId });
      },
    };
    const done = timeCall(call);
    handler(call.request, ctx)
      .then(
        (response) => {
          done(grpc.status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          const serviceError = toServiceError(error, log, requestId);
          done(serviceError.code);
          callback(serviceError);
        },
      )
      // What grpc-js throws while sending (a response it cannot serialize) must not end the process.
      .catch((error: unknown) => log.error({ err: error, requestId }, 'could not send the answer of a call'));
  };
}

/** Adapts an async generator to a server-streaming call, honouring back-pressure and cancellation. */
export function serverStream<Req, Res>(
  log: Logger,
  handler: (request: Req, ctx: CallContext) => AsyncIterable<Res>,
): grpc.handleServerStreamingCall<Req, Res> {
  return (call) => {
    const requestId = requestIdOf(call.metadata);
    const ctx = {
      requestId,
      clientAddress: clientAddressOf(call.metadata),
      get log() {
        return log.child({ requestId });
      },
    };
    const done = timeCall(call);
    void (async () => {
      try {
        for await (const item of handler(call.request, ctx)) {
          if (call.cancelled) return done(grpc.status.CANCELLED);
          if (!call.write(item)) await new Promise((resolve) => call.once('drain', resolve));
        }
        call.end();
        done(grpc.status.OK);
      } catch (error) {
        const serviceError = toServiceError(error, log, requestId);
        done(serviceError.code);
        failStream(call, Object.assign(new Error('stream failed'), serviceError));
      }
    })();
  };
}

/** Starts timing a call (to a registered method); the returned function records it with its status. */
function timeCall(call: { getPath(): string }): (code: grpc.status | undefined) => void {
  const started = process.hrtime.bigint();
  // A call object made by hand (tests) may lack getPath.
  const labels = grpcMethodLabels(typeof call.getPath === 'function' ? call.getPath() : '');
  return (code) => {
    grpcServerDuration.observe(
      { ...labels, grpc_code: grpc.status[code ?? grpc.status.UNKNOWN] ?? 'UNKNOWN' },
      secondsSince(started),
    );
  };
}

export interface ServiceBinding {
  /** Fully qualified name for health, e.g. `cms.content.v1.ContentService`. */
  name: string;
  definition: grpc.ServiceDefinition;
  implementation: grpc.UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  /** `host:port`; port 0 picks a free one. */
  address: string;
  services: ServiceBinding[];
  /**
   * A real readiness check (store answers, bus connected); rejects when not ready. It sets the overall health
   * status `''` and each service's own name; LIVENESS_SERVICE does not depend on it.
   */
  healthCheck: () => Promise<void>;
  healthIntervalMs?: number;
  maxMessageBytes: number;
  /** GRPC_MAX_CONNECTION_AGE_MS and its grace (commonEnv); absent: connections are not aged. */
  connectionAge?: { maxAgeMs: number; graceMs?: number };
  logger: Logger;
}

/** A service's GrpcServerOptions.connectionAge, from its configuration. */
export function connectionAgeOf(config: {
  GRPC_MAX_CONNECTION_AGE_MS: number;
  GRPC_MAX_CONNECTION_AGE_GRACE_MS?: number;
}): GrpcServerOptions['connectionAge'] {
  return { maxAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS, graceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS };
}

export interface RunningGrpcServer {
  /** `host:port` with the real port. */
  address: string;
  port: number;
  /** Stops taking calls, lets in-flight calls finish until the deadline, then cancels them. */
  stop(deadlineMs: number): Promise<void>;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const { logger } = options;
  const server = new grpc.Server(
    serverChannelOptions(options.maxMessageBytes, options.connectionAge?.maxAgeMs ?? 0, options.connectionAge?.graceMs),
  );
  for (const service of options.services) {
    // No handler runs for a caller without a valid service proof; the health check below stays open.
    const checked = requireServiceProof(service.definition, service.implementation, logger);
    server.addService(checked.definition, checked.implementation);
  }

  const health = new HealthImplementation({ '': 'NOT_SERVING', [LIVENESS_SERVICE]: 'SERVING' });
  health.addToServer(server);
  const names = ['', ...options.services.map((s) => s.name)];
  let lastStatus: string | undefined;
  const runHealthCheck = async () => {
    let status: 'SERVING' | 'NOT_SERVING' = 'SERVING';
    try {
      await options.healthCheck();
    } catch (error) {
      status = 'NOT_SERVING';
      if (lastStatus !== status) logger.warn({ err: error }, 'health check failing');
    }
    if (lastStatus !== status) logger.info({ status }, 'health status');
    lastStatus = status;
    for (const name of names) health.setStatus(name, status);
  };
  await runHealthCheck();
  const healthTimer = setInterval(() => void runHealthCheck(), options.healthIntervalMs ?? 2000);
  healthTimer.unref();

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.address, grpc.ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    ),
  );
  const host = options.address.slice(0, options.address.lastIndexOf(':'));
  const address = `${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
  logger.info({ address, services: options.services.map((s) => s.name) }, 'gRPC server listening');

  return {
    address,
    port,
    async stop(deadlineMs) {
      clearInterval(healthTimer);
      for (const name of names) health.setStatus(name, 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, deadlineMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
