import type { z } from 'zod';
import type { commonEnv } from '../config/load';
import type { EventBus } from '../ports/bus';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../ports/store';
import { connectionAgeOf, startGrpcServer, type GrpcServerOptions, type RunningGrpcServer } from '../grpc/server';

export type CommonConfig = z.infer<z.ZodObject<typeof commonEnv>>;

/** What a service is started with; the caller owns the store and the bus and closes them after `stop`. */
export interface ServiceDeps<C> {
  config: C;
  logger: Logger;
  store: DocumentStore;
  bus: EventBus;
}

export interface RunningService {
  /** `host:port` of its gRPC server. */
  address: string;
  /** `host:port` of its internal HTTP server, for a service that has one (content: the file hop). */
  httpAddress?: string;
  /** Stops serving and consuming; in-flight work finishes first. */
  stop(): Promise<void>;
}

/**
 * Readiness of a service that publishes or consumes events: its store answers,
 * and its bus has reached the broker since the start (queues declared,
 * consumers started). A broker outage after that does not make it unready: its
 * writes keep their events in the outbox and its queues keep what it consumes,
 * so taking it out of a load balancer would only refuse requests it can answer.
 */
export function storeAndBusReady(store: DocumentStore, bus: EventBus): () => Promise<void> {
  return async () => {
    await store.ping();
    await bus.ready();
  };
}

/** Readiness of a service that neither publishes nor consumes events: its store answers. */
export function storeReady(store: DocumentStore): () => Promise<void> {
  return () => store.ping();
}

/**
 * The stops of a service's parts, registered as its start builds them (`onStop`) and run newest first: what
 * started after the gRPC server (the watch streams it serves, say) stops before it, and the clients and the outbox
 * everything uses stop last.
 */
export class ServiceParts {
  private readonly stops: { part: string; stop: () => unknown }[] = [];

  constructor(private readonly logger: Logger) {}

  /** `part` has started: `stop` runs before the stops of the parts registered earlier. */
  onStop(part: string, stop: () => unknown): void {
    this.stops.push({ part, stop });
  }

  /** Runs every stop, newest first; a stop that fails is logged and the others still run; then the first failure is thrown. */
  async stopAll(): Promise<void> {
    let failure: unknown;
    for (const { part, stop } of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        this.logger.error({ err, part }, 'a part of the service failed to stop');
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }
}

/**
 * One lifecycle for every service: `start` builds its parts, registering each one's stop (`parts.onStop`), and
 * answers where it serves; a start that fails stops what it had started before the error goes on (no timer or
 * consumer of a half-started service keeps the process alive).
 */
export function serviceLifecycle<C>(
  start: (deps: ServiceDeps<C>, parts: ServiceParts) => Promise<Omit<RunningService, 'stop'>>,
): (deps: ServiceDeps<C>) => Promise<RunningService> {
  return async (deps) => {
    const parts = new ServiceParts(deps.logger);
    try {
      const serving = await start(deps, parts);
      return { ...serving, stop: () => parts.stopAll() };
    } catch (err) {
      await parts.stopAll().catch(() => undefined);
      throw err;
    }
  };
}

/** What every service's gRPC server takes from its settings. */
export interface GrpcServiceSettings {
  MAX_MESSAGE_BYTES: number;
  SHUTDOWN_TIMEOUT_MS: number;
  GRPC_MAX_CONNECTION_AGE_MS: number;
  GRPC_MAX_CONNECTION_AGE_GRACE_MS?: number;
}

/**
 * A service's gRPC server with the suite's settings (message size, connection age, shutdown deadline), its stop
 * registered: what starts after it stops before it.
 */
export async function serveGrpc(
  parts: ServiceParts,
  { config, logger }: { config: GrpcServiceSettings; logger: Logger },
  options: Pick<GrpcServerOptions, 'address' | 'services' | 'healthCheck'>,
): Promise<RunningGrpcServer> {
  const server = await startGrpcServer({
    ...options,
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    connectionAge: connectionAgeOf(config),
    logger,
  });
  parts.onStop('gRPC server', () => server.stop(config.SHUTDOWN_TIMEOUT_MS));
  return server;
}
