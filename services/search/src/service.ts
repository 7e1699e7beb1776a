import {
  createClient,
  envelopeHandler,
  protos,
  startGrpcServer,
  storeAndBusReady,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { searchRpcs } from './api/grpc';
import { searchEndpoints } from './api/http';
import type { SearchConfig } from './config';
import { subscribeToContent } from './events/consumer';
import { Catalog } from './store/catalog';

export async function startSearchService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<SearchConfig>): Promise<RunningService> {
  const catalog = new Catalog(store);
  await catalog.ensureIndexes();
  const subscription = await subscribeToContent(bus, catalog, logger);
  const content = createClient(protos().content.ContentService, config.CONTENT_ADDRESS, config.MAX_MESSAGE_BYTES);

  const server = await startGrpcServer({
    address: config.SEARCH_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.search.v1.SearchService',
        definition: protos().search.SearchService.service,
        implementation: {
          Handle: envelopeHandler(
            'search',
            searchEndpoints(catalog, subscription, config.READ_YOUR_WRITES_TIMEOUT_MS),
            logger,
          ),
          ...searchRpcs(catalog, content, logger),
        },
      },
    ],
    healthCheck: storeAndBusReady(store, bus),
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });

  return {
    address: server.address,
    async stop() {
      await server.stop(config.SHUTDOWN_TIMEOUT_MS);
      await subscription.stop();
      content.close();
    },
  };
}
