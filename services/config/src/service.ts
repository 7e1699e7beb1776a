import {
  identifiersOf,
  protos,
  remoteContentContexts,
  serveEndpoints,
  serveGrpc,
  serviceLifecycle,
  storeAndBusReady,
  type ServiceDeps,
  type ServiceParts,
} from '@cms/shared';
import { configRpcs } from './api/grpc';
import { typeRpcs } from './api/types-rpc';
import { ContentTypes } from './domain/content-types';
import { StoreContentTypes } from './store/content-types';
import { ENDPOINTS } from './api/endpoints';
import type { ConfigConfig } from './config';
import { RecordChanges } from './domain/changes';
import { Registry } from './domain/registry';
import { languageRootsEffect } from './domain/language-roots';
import { remoteLanguageRoots } from './clients/language-roots';
import { siteTitleEffect } from './domain/site-title';
import { remoteSiteRootTitle } from './clients/site-title';
import { StoreRegistryValues } from './store/registry-values';
import { smtpMailSender } from '@cms/shared/adapters';
import { remoteContent } from './clients/content';
import { remoteActors } from './clients/identity';
import { foldersAbove, RuleAssignments } from './domain/rule-assignments';
import { ruleMailer } from './domain/rule-mail';
import { RuleRunner } from './domain/rule-runner';
import { RuleBook } from './domain/rules';
import { broadcastChanges, CHANGE_TOPICS } from './events/changes-broadcast';
import { subscribeRules } from './events/rules-consumer';
import { StoreRuleExecutions } from './store/rule-executions';
import { StoreRules } from './store/rules';
import { systemInfo } from './system-info';

/**
 * The config service: the configuration registry (`@registry` for clients,
 * `GetRecords` for other services), the control panels over it, `@site`,
 * `@system` and the deprecated `@tiles`.
 */
export const startConfigService = serviceLifecycle(startConfig);

async function startConfig({ config, logger, store, bus }: ServiceDeps<ConfigConfig>, parts: ServiceParts) {
  // Where writes are announced to other services' settings caches (`WatchRecords`).
  const changes = new RecordChanges(logger);
  // Multilingual on: the language roots are made by content before the panel's write is stored.
  const languageRoots = remoteLanguageRoots(
    () => config.CONTENT_ADDRESS,
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
  );
  // The site title: content's site root takes it before the panel's write is stored.
  const siteRootTitle = remoteSiteRootTitle(
    () => config.CONTENT_ADDRESS,
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
  );
  parts.onStop('content clients', () => {
    languageRoots.close();
    siteRootTitle.close();
  });
  const registry = new Registry(new StoreRegistryValues(store), changes, [
    languageRootsEffect(languageRoots),
    siteTitleEffect(siteRootTitle),
  ]);
  // The content types, and where their changes are announced to content's type cache (`WatchTypes`).
  const typeChanges = new RecordChanges(logger);
  const contentTypes = new ContentTypes(new StoreContentTypes(store), typeChanges);
  await contentTypes.seed();
  // Replicas on one store: a write through any replica reaches the caches watching every other one.
  for (const [recordChanges, topic] of [
    [changes, CHANGE_TOPICS.records],
    [typeChanges, CHANGE_TOPICS.types],
  ] as const) {
    const subscription = await broadcastChanges(recordChanges, topic, bus, logger);
    parts.onStop(`${topic} broadcast`, () => subscription.stop());
  }

  // Content rules: kept here, run on content's and comments' events through content's typed RPCs.
  const { CALL_TIMEOUT_MS: timeout, MAX_MESSAGE_BYTES: maxBytes } = config;
  // Read at each call: the embedded suite starts config before content.
  const content = remoteContent(() => config.CONTENT_ADDRESS, timeout, maxBytes);
  let contextClient: ReturnType<typeof remoteContentContexts> | undefined;
  const contexts: ReturnType<typeof remoteContentContexts> = {
    resolve: (path, requestId, publicUrl) =>
      (contextClient ??= remoteContentContexts(config.CONTENT_ADDRESS, timeout, maxBytes)).resolve(
        path,
        requestId,
        publicUrl,
      ),
    close: () => contextClient?.close(),
  };
  parts.onStop('content clients', () => {
    content.close();
    contexts.close();
  });
  const ruleStore = new StoreRules(store);
  const executions = new StoreRuleExecutions(store);
  await executions.ensureIndexes();
  const mail = smtpMailSender({ get: (names) => registry.values(names) });
  parts.onStop('mail', () => mail.close());
  const actors = remoteActors(() => config.IDENTITY_ADDRESS, timeout, maxBytes);
  parts.onStop('identity client', () => actors.close());
  const runner = new RuleRunner(
    executions,
    content,
    executions,
    logger,
    ruleMailer(mail, (userId, requestId) => actors.email(userId, requestId)),
  );
  const rules = new RuleBook(ruleStore);
  const assignments = new RuleAssignments(ruleStore);
  const above = foldersAbove(async (path) => (await content.byPath(path, 'content-rules'))?.uid ?? null);
  const subscription = await subscribeRules(bus, {
    rules: ruleStore,
    executions,
    content,
    runner,
    actors: (userId, requestId) => actors.actor(userId, requestId),
    log: logger,
  });
  runner.start();
  parts.onStop('rule runner', () => runner.stop());
  parts.onStop('rule events', () => subscription.stop());

  const server = await serveGrpc(
    parts,
    { config, logger },
    {
      address: config.CONFIG_GRPC_ADDRESS,
      services: [
        {
          name: 'cms.config.v1.ConfigService',
          definition: protos().config.ConfigService.service,
          implementation: {
            Handle: serveEndpoints({
              service: 'config',
              identifiers: identifiersOf(config),
              endpoints: ENDPOINTS,
              deps: {
                registry,
                system: systemInfo(store.kind, bus.kind),
                rules,
                assignments,
                foldersAbove: above,
                contentTypes,
                countByType: (names: readonly string[], requestId: string) => content.countByType(names, requestId),
                rootTitle: async (requestId: string) => (await content.byPath('/', requestId))?.title ?? null,
              },
              // `@content-rules` answers on any folder; the other endpoints at the site root, which needs no call.
              contexts,
              logger,
            }),
            ...configRpcs(registry, changes, logger),
            ...typeRpcs(contentTypes, typeChanges, logger),
          },
        },
      ],
      // The rules consume events: without the broker they would wait.
      healthCheck: storeAndBusReady(store, bus),
    },
  );
  // Registered after the server, so ended before it: open watch streams would hold its graceful shutdown.
  parts.onStop('watch streams', () => {
    changes.close();
    typeChanges.close();
  });
  return { address: server.address };
}
