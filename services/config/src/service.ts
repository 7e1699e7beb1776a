import {
  protos,
  serveEndpoints,
  siteRootOnly,
  startGrpcServer,
  storeReady,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { configRpcs } from './api/grpc';
import { ENDPOINTS } from './api/endpoints';
import type { ConfigConfig } from './config';
import { RecordChanges } from './domain/changes';
import { Registry } from './domain/registry';
import { StoreRegistryValues } from './store/registry-values';
import { systemInfo } from './system-info';

/**
 * The config service: the configuration registry (`@registry` for clients,
 * `GetRecords` for other services), the control panels over it, `@site`,
 * `@system` and the deprecated `@tiles`.
 */
export async function startConfigService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<ConfigConfig>): Promise<RunningService> {
  // Where writes are announced to other services' settings caches (`WatchRecords`).
  const changes = new RecordChanges();
  const registry = new Registry(new StoreRegistryValues(store), changes);

  const server = await startGrpcServer({
    address: config.CONFIG_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.config.v1.ConfigService',
        definition: protos().config.ConfigService.service,
        implementation: {
          Handle: serveEndpoints({
            service: 'config',
            endpoints: ENDPOINTS,
            deps: { registry, system: systemInfo(store.kind, bus.kind) },
            contexts: siteRootOnly(),
            logger,
          }),
          ...configRpcs(registry, changes, logger),
        },
      },
    ],
    // It neither publishes nor consumes events: the broker has no say in whether it can answer.
    healthCheck: storeReady(store),
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });
  return {
    address: server.address,
    async stop() {
      // Open watch streams would hold the server's graceful shutdown until its deadline.
      changes.close();
      await server.stop(config.SHUTDOWN_TIMEOUT_MS);
    },
  };
}
