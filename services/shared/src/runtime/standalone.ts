import { z } from 'zod';
import { commonEnv, loadConfig } from '../config/load';
import type { EventBus } from '../events/port';
import type { ServiceName } from '../http/routes';
import { createLogger, type Logger } from '../logging/logger';
import type { DocumentStore } from '../store/port';
import { CONSUMER_GROUPS } from '../events/content-events';
import { openBus, openServiceStore } from './infrastructure';
import { exitOnStartupFailure, stopOnSignals } from './lifecycle';

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

/**
 * Runs one service as its own process (distributed mode): validated config,
 * its own store, the AMQP bus (required: separate processes share no memory),
 * graceful shutdown on SIGTERM with the store closed last.
 */
export function runStandalone<C extends CommonConfig>(
  service: ServiceName,
  schema: z.ZodType<C, z.ZodTypeDef, unknown>,
  start: (deps: ServiceDeps<C>) => Promise<RunningService>,
): void {
  const logger = createLogger(service);
  const boot = async () => {
    const config = loadConfig(
      schema.superRefine((c, ctx) => {
        if (!c.AMQP_URL)
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['AMQP_URL'],
            message: 'required when a service runs as its own process',
          });
      }),
    );
    logger.level = config.LOG_LEVEL;
    const store = await openServiceStore(service, config);
    const bus = await openBus(config, CONSUMER_GROUPS, logger);
    const running = await start({ config, logger, store, bus });
    stopOnSignals(
      logger,
      {
        async stop() {
          await running.stop();
          await bus.close();
          await store.close();
        },
      },
      config.SHUTDOWN_TIMEOUT_MS,
    );
  };
  boot().catch(exitOnStartupFailure(logger));
}

/** A readiness check that asks something real: the store answers and the bus is connected. */
export function storeAndBusReady(store: DocumentStore, bus: EventBus): () => Promise<void> {
  return async () => {
    await store.ping();
    await bus.ping();
  };
}
