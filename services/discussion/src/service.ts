import {
  OutboxRelay,
  protos,
  serveEndpoints,
  startGrpcServer,
  storeAndBusReady,
  type Collection,
  type Document,
  type OutboxFields,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { ENDPOINTS } from './api/endpoints';
import { identityAuthors } from './clients/authors';
import { remoteContentSource } from './clients/content-source';
import { discussionContexts } from './clients/contexts';
import { registrySettings } from './clients/settings';
import type { DiscussionConfig } from './config';
import type { CommentDoc } from './domain/comment';
import { CommentCommands } from './domain/comment-commands';
import { subscribeToEvents } from './events/consumer';
import { CommentStore } from './store/comments';

/**
 * The discussion service: comments on content (`@comments`) in its own store, published as `comment.*` events
 * through an outbox, and removed with their content (`content.removed`). Content answers what a path names and
 * whether it allows discussion, identity who the authors are, config the discussion settings.
 */
export async function startDiscussionService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<DiscussionConfig>): Promise<RunningService> {
  const comments = new CommentStore(store);
  await comments.ensureIndexes();
  const relay = new OutboxRelay(comments.comments as unknown as Collection<Document & OutboxFields>, bus, logger, {
    beforeTombstoneRemoval: (doc) => comments.removeReplies(doc as CommentDoc),
  });
  await relay.ensureIndexes();
  relay.start();

  const { CALL_TIMEOUT_MS: timeout, MAX_MESSAGE_BYTES: maxBytes } = config;
  const contexts = discussionContexts(() => config.CONTENT_ADDRESS, timeout, maxBytes);
  const content = remoteContentSource(() => config.CONTENT_ADDRESS, timeout, maxBytes);
  const settings = registrySettings(() => config.CONFIG_ADDRESS, timeout, maxBytes);
  const authors = identityAuthors(() => config.IDENTITY_ADDRESS, timeout, maxBytes);
  const commands = new CommentCommands(
    comments,
    { flush: (id) => relay.flushWithin(id, config.EVENT_FLUSH_TIMEOUT_MS).then(() => undefined) },
    { limit: config.COMMENT_RATE_LIMIT, windowSeconds: config.COMMENT_RATE_WINDOW_SECONDS },
    logger,
  );
  const subscription = await subscribeToEvents(bus, comments, content, logger);

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
            deps: { commands, store: comments, settings, authors },
            contexts,
            logger,
          }),
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
      await relay.stop();
      for (const client of [contexts, content, settings, authors]) client.close();
    },
  };
}
