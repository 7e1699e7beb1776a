import {
  protos,
  serveEndpoints,
  siteRootOnly,
  startGrpcServer,
  storeReady,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { ENDPOINTS } from './api/endpoints';
import type { DiscussionConfig } from './config';

/**
 * The discussion service owns its area's endpoints; none is declared yet (api/endpoints.ts), so it serves
 * health only.
 */
export async function startDiscussionService({
  config,
  logger,
  store,
}: ServiceDeps<DiscussionConfig>): Promise<RunningService> {
  const server = await startGrpcServer({
    address: config.DISCUSSION_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.discussion.v1.DiscussionService',
        definition: protos().discussion.DiscussionService.service,
        implementation: {
          Handle: serveEndpoints({
            service: 'discussion',
            endpoints: ENDPOINTS,
            deps: {},
            contexts: siteRootOnly(),
            logger,
          }),
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
