import { envelopeHandler, protos, startGrpcServer, type RunningService, type ServiceDeps } from '@cms/shared';
import type { ConfigConfig } from './config';

/**
 * The config service owns its area's endpoints; none is routed to it yet (its
 * rows of the routing table are empty), so it serves health only.
 */
export async function startConfigService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<ConfigConfig>): Promise<RunningService> {
  const server = await startGrpcServer({
    address: config.CONFIG_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.config.v1.ConfigService',
        definition: protos().config.ConfigService.service,
        implementation: { Handle: envelopeHandler('config', {}, logger) },
      },
    ],
    healthCheck: async () => {
      await store.ping();
      await bus.ping();
    },
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });
  return { address: server.address, stop: () => server.stop(config.SHUTDOWN_TIMEOUT_MS) };
}
