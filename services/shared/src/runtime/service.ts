import type { z } from 'zod';
import type { commonEnv } from '../config/load';
import type { EventBus } from '../events/port';
import type { Logger } from '../logging/logger';
import type { DocumentStore } from '../store/port';

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
