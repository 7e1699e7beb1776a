import { z } from 'zod';
import { loadConfig } from '../config/load';
import { requireServiceKey, useServiceKeys } from '../grpc/service-auth';
import type { ServiceName } from '../http/endpoint';
import { createLogger } from '../logging/logger';
import type { ConsumerGroup } from '../events/topology';
import { openBus, openServiceStore, serviceDataDir } from './infrastructure';
import { exitOnStartupFailure, stopOnSignals } from './lifecycle';
import { metricsPortSettings, startMetricsPort } from './metrics-port';
import { sqliteStoreOf } from '../adapters/store/sqlite';
import { guardEmbeddedReplicas, storeServesReplicas } from './replica-guard';
import type { CommonConfig, RunningService, ServiceDeps } from './service';

/**
 * Runs one service as its own process (distributed mode): validated config,
 * its own store, the AMQP bus (required: separate processes share no memory),
 * graceful shutdown on SIGTERM with the store closed last. The bus declares
 * the service's own consumer groups (e.g. SEARCH_CONSUMER_GROUPS) before it
 * starts, so its queues keep what is published while it is down. A broker that
 * is down at start does not stop it: it starts, reports not ready, and
 * connects when the broker is back. Its metrics are served on METRICS_PORT (default 9464, `off` for none). On an
 * embedded store it watches for other processes of its service on the bus (./replica-guard.ts).
 */
export function runStandalone<C extends CommonConfig>(
  service: ServiceName,
  schema: z.ZodType<C, z.ZodTypeDef, unknown>,
  start: (deps: ServiceDeps<C>) => Promise<RunningService>,
  consumerGroups: ConsumerGroup[] = [],
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
        requireServiceKey(c, ctx);
      }),
    );
    useServiceKeys(config);
    logger.level = config.LOG_LEVEL;
    const metrics = await startMetricsPort(metricsPortSettings(), logger);
    const store = await openServiceStore(service, config, logger);
    const bus = await openBus(config, consumerGroups, logger);
    // Replicas on stores of their own would split the data: they find each other and step out (replica-guard.ts).
    const guard = storeServesReplicas(store)
      ? undefined
      : await guardEmbeddedReplicas({
          service,
          folder: sqliteStoreOf(store)?.file ?? serviceDataDir(service, config),
          bus,
          logger,
        });
    const running = await start({ config, logger, store, bus: guard?.bus ?? bus });
    stopOnSignals(
      logger,
      {
        async stop() {
          await running.stop();
          await guard?.stop();
          await bus.close();
          await store.close();
          await metrics.stop();
        },
      },
      config.SHUTDOWN_TIMEOUT_MS,
    );
  };
  boot().catch(exitOnStartupFailure(logger));
}
