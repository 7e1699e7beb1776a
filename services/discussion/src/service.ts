import {
  awaitPublishedRpc,
  identifiersOf,
  OutboxRelay,
  RegistrySettings,
  protos,
  serveEndpoints,
  connectionAgeOf,
  startGrpcServer,
  storeAndBusReady,
  type Collection,
  type Document,
  type OutboxFields,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { smtpMailSender } from '@cms/shared/adapters';
import { commentRpcs } from './api/comment-rpc';
import { ENDPOINTS } from './api/endpoints';
import { identityAuthors } from './clients/authors';
import { remoteContentSource } from './clients/content-source';
import { discussionContexts } from './clients/contexts';
import { registrySettings } from './clients/settings';
import type { DiscussionConfig } from './config';
import type { CommentDoc } from './domain/comment';
import { CommentCommands } from './domain/comment-commands';
import { subscribeToEvents } from './events/consumer';
import { Notifier } from './events/notifications';
import { CommentStore } from './store/comments';
import { MailQueue } from './store/mail-queue';

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
  // The mail panel's settings, read when a mail is sent (the config service may start after this one).
  let registry: RegistrySettings | undefined;
  const mailSettings = {
    get: (names: readonly string[], requestId: string) =>
      (registry ??= new RegistrySettings({
        address: config.CONFIG_ADDRESS,
        timeoutMs: timeout,
        maxMessageBytes: maxBytes,
        log: logger,
      })).get(names, requestId),
  };
  const mail = smtpMailSender(mailSettings, { timeoutMs: config.SMTP_TIMEOUT_MS });
  const mailQueue = new MailQueue(store);
  await mailQueue.ensureIndexes();
  const notifier = new Notifier(mailQueue, comments, settings, content, authors, mail, logger, {
    defaultPublicUrl: config.PUBLIC_URL,
  });
  notifier.start();
  const subscription = await subscribeToEvents(bus, comments, content, logger, notifier);

  const server = await startGrpcServer({
    address: config.DISCUSSION_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.discussion.v1.DiscussionService',
        definition: protos().discussion.DiscussionService.service,
        implementation: {
          Handle: serveEndpoints({
            service: 'discussion',
            identifiers: identifiersOf(config),
            endpoints: ENDPOINTS,
            deps: { commands, store: comments, settings, authors },
            contexts,
            logger,
          }),
          ...commentRpcs(comments, logger),
          ...awaitPublishedRpc(relay, logger),
        },
      },
    ],
    healthCheck: storeAndBusReady(store, bus),
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    connectionAge: connectionAgeOf(config),
    logger,
  });
  return {
    address: server.address,
    async stop() {
      await server.stop(config.SHUTDOWN_TIMEOUT_MS);
      await subscription.stop();
      await notifier.stop();
      await relay.stop();
      for (const client of [contexts, content, settings, authors, mail]) client.close();
      registry?.close();
    },
  };
}
