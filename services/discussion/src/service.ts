import {
  awaitPublishedRpc,
  identifiersOf,
  OutboxRelay,
  RegistrySettings,
  protos,
  serveEndpoints,
  serveGrpc,
  serviceLifecycle,
  storeAndBusReady,
  type Collection,
  type Document,
  type OutboxFields,
  type ServiceDeps,
  type ServiceParts,
} from '@cms/shared';
import { smtpMailSender } from '@cms/shared/adapters';
import { commentExchangeRpcs } from './api/comment-exchange';
import { commentRpcs } from './api/comment-rpc';
import { renderRpc } from './api/render-rpc';
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
export const startDiscussionService = serviceLifecycle(startDiscussion);

async function startDiscussion({ config, logger, store, bus }: ServiceDeps<DiscussionConfig>, parts: ServiceParts) {
  const comments = new CommentStore(store);
  await comments.ensureIndexes();
  const relay = new OutboxRelay(comments.comments as unknown as Collection<Document & OutboxFields>, bus, logger, {
    beforeTombstoneRemoval: (doc) => comments.removeReplies(doc as CommentDoc),
  });
  await relay.ensureIndexes();
  relay.start();
  parts.onStop('outbox relay', () => relay.stop());

  const { CALL_TIMEOUT_MS: timeout, MAX_MESSAGE_BYTES: maxBytes } = config;
  const contexts = discussionContexts(() => config.CONTENT_ADDRESS, timeout, maxBytes);
  const content = remoteContentSource(() => config.CONTENT_ADDRESS, timeout, maxBytes);
  const settings = registrySettings(() => config.CONFIG_ADDRESS, timeout, maxBytes);
  const authors = identityAuthors(() => config.IDENTITY_ADDRESS, timeout, maxBytes);
  parts.onStop('clients', () => {
    for (const client of [contexts, content, settings, authors]) client.close();
  });
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
  parts.onStop('mail', () => {
    mail.close();
    registry?.close();
  });
  const mailQueue = new MailQueue(store);
  await mailQueue.ensureIndexes();
  const notifier = new Notifier(mailQueue, comments, settings, content, authors, mail, logger, {
    defaultPublicUrl: config.PUBLIC_URL,
  });
  notifier.start();
  parts.onStop('notifier', () => notifier.stop());
  const subscription = await subscribeToEvents(bus, comments, content, logger, notifier);
  parts.onStop('event subscription', () => subscription.stop());

  const server = await serveGrpc(
    parts,
    { config, logger },
    {
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
            ...commentExchangeRpcs(commands, comments, logger),
            ...renderRpc({ store: comments, settings, authors, contexts }, logger),
            ...awaitPublishedRpc(relay, logger),
          },
        },
      ],
      healthCheck: storeAndBusReady(store, bus),
    },
  );
  return { address: server.address };
}
