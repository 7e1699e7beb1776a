import {
  envelopeHandler,
  protos,
  startGrpcServer,
  storeAndBusReady,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { contentLookups } from './api/grpc';
import { contentEndpoints } from './api/http';
import { sharingEndpoints } from './api/sharing';
import { workflowEndpoints } from './api/workflow';
import { identityDirectory } from './clients/identity-directory';
import { SharingCommands } from './domain/sharing-commands';
import { WorkflowCommands } from './domain/workflow-commands';
import type { ContentConfig } from './config';
import { ContentCommands } from './domain/content-commands';
import { ContentEventRelay } from './events/relay';
import { subscribeToIdentity } from './events/identity-consumer';
import { StoreContentRepository } from './store/content-repository';

export async function startContentService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<ContentConfig>): Promise<RunningService> {
  const repo = new StoreContentRepository(store);
  await repo.ensureIndexes();
  const relay = new ContentEventRelay(repo, bus, logger, config.EVENT_FLUSH_TIMEOUT_MS);
  await relay.outbox.ensureIndexes();
  const commands = new ContentCommands(repo, relay);
  const directory = identityDirectory(config.IDENTITY_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES);
  const sharing = new SharingCommands(repo, relay, directory);
  const endpoints = {
    ...contentEndpoints(commands, repo),
    ...workflowEndpoints(commands, new WorkflowCommands(repo, relay)),
    ...sharingEndpoints(commands, sharing),
  };
  const identityEvents = await subscribeToIdentity(bus, sharing, logger);
  await commands.ensureSiteRoot(config.SITE_TITLE, config.SITE_ID, config.ADMIN_USER);
  relay.outbox.start();

  const server = await startGrpcServer({
    address: config.CONTENT_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.content.v1.ContentService',
        definition: protos().content.ContentService.service,
        implementation: {
          Handle: envelopeHandler('content', endpoints, logger),
          ...contentLookups(repo, logger),
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
      await identityEvents.stop();
      await relay.outbox.stop();
      directory.close();
    },
  };
}
