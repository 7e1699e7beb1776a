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
  /** Stops serving and consuming; in-flight work finishes first. */
  stop(): Promise<void>;
}

/** A readiness check that asks something real: the store answers and the bus is connected. */
export function storeAndBusReady(store: DocumentStore, bus: EventBus): () => Promise<void> {
  return async () => {
    await store.ping();
    await bus.ping();
  };
}
