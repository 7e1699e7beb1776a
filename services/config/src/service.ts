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
import { Registry } from './domain/registry';
import { StoreRegistryValues } from './store/registry-values';

/**
 * The config service: the configuration registry (`@registry` for clients,
 * `GetRecords` for other services).
 */
export async function startConfigService({
  config,
  logger,
  store,
}: ServiceDeps<ConfigConfig>): Promise<RunningService> {
  const registry = new Registry(new StoreRegistryValues(store));

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
            deps: { registry },
            contexts: siteRootOnly(),
            logger,
          }),
          ...configRpcs(registry, logger),
        },
      },
    ],
    // It neither publishes nor consumes events: the broker has no say in whether it can answer.
    healthCheck: storeReady(store),
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });
  return { address: server.address, stop: () => server.stop(config.SHUTDOWN_TIMEOUT_MS) };
}
