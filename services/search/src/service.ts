import {
  ConfigTypes,
  identifiersOf,
  createClient,
  protos,
  RegistrySettings,
  remoteContentContexts,
  serveEndpoints,
  serveGrpc,
  serviceLifecycle,
  storeAndBusReady,
  RebuildCheckpoints,
  type ContentServiceClient,
  type DiscussionServiceClient,
  type ServiceDeps,
  type ServiceParts,
} from '@cms/shared';
import { searchRpcs } from './api/grpc';
import { termsRpcs } from './api/terms-rpc';
import { queryCollectionRpc } from './api/query-collection-rpc';
import { ReadYourWrites } from './api/read-your-writes';
import { remoteFullComments } from './clients/comment-render';
import { remoteFullObjects } from './clients/content-render';
import { ENDPOINTS } from './api/endpoints';
import { remoteContentSource } from './clients/content-source';
import { remoteDiscussionSource } from './clients/discussion-source';
import { registrySearchSettings } from './clients/search-settings';
import { configAddableTypes } from './clients/content-types';
import type { SearchConfig } from './config';
import { subscribeToContent } from './events/consumer';
import { Catalog } from './store/catalog';
import { startTombstoneSweep } from './store/tombstone-sweep';

export const startSearchService = serviceLifecycle(startSearch);

async function startSearch({ config, logger, store, bus }: ServiceDeps<SearchConfig>, parts: ServiceParts) {
  const catalog = new Catalog(store, logger);
  await catalog.ensureIndexes();
  // Made on first use, when events or requests arrive: the embedded suite starts search before content (so that
  // search subscribes before content's first write) and knows content's address only once content has started.
  let content: ContentServiceClient | undefined;
  const contentClient = () =>
    (content ??= createClient(protos().content.ContentService, config.CONTENT_ADDRESS, config.MAX_MESSAGE_BYTES));
  const contentSource = remoteContentSource(contentClient, config.CALL_TIMEOUT_MS);
  // Made on first use too: in the embedded suite discussion starts after search.
  let discussion: DiscussionServiceClient | undefined;
  const discussionClient = () =>
    (discussion ??= createClient(
      protos().discussion.DiscussionService,
      config.DISCUSSION_ADDRESS,
      config.MAX_MESSAGE_BYTES,
    ));
  const discussionSource = remoteDiscussionSource(discussionClient, config.CALL_TIMEOUT_MS);
  let registry: RegistrySettings | undefined;
  let configTypes: ConfigTypes | undefined;
  let contexts: ReturnType<typeof remoteContentContexts> | undefined;
  // The clients made on first use (above and below), closed after everything that calls them.
  parts.onStop('clients', () => {
    content?.close();
    discussion?.close();
    registry?.close();
    configTypes?.close();
    contexts?.close();
  });
  const subscription = await subscribeToContent(bus, catalog, contentSource, logger, discussionSource);
  parts.onStop('content events', () => subscription.stop());
  const readYourWrites = new ReadYourWrites({
    events: subscription,
    producers: [
      { name: 'content', client: contentClient },
      { name: 'discussion', client: discussionClient },
    ],
    timeoutMs: config.READ_YOUR_WRITES_TIMEOUT_MS,
  });
  const siteSearch = registrySearchSettings(
    () =>
      (registry ??= new RegistrySettings({
        address: config.CONFIG_ADDRESS,
        timeoutMs: config.CALL_TIMEOUT_MS,
        maxMessageBytes: config.MAX_MESSAGE_BYTES,
        log: logger,
      })),
  );
  const addableTypes = configAddableTypes(
    () =>
      (configTypes ??= new ConfigTypes({
        address: config.CONFIG_ADDRESS,
        timeoutMs: config.CALL_TIMEOUT_MS,
        maxMessageBytes: config.MAX_MESSAGE_BYTES,
        log: logger,
      })),
    logger,
  );
  const clock = () => new Date();
  const tombstones = startTombstoneSweep(catalog, {
    retentionMs: config.SEARCH_TOMBSTONE_RETENTION_MS,
    now: clock,
    log: logger,
  });
  parts.onStop('tombstone sweep', () => tombstones.stop());
  const contentContexts = () =>
    (contexts ??= remoteContentContexts(config.CONTENT_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES));

  const server = await serveGrpc(
    parts,
    { config, logger },
    {
      address: config.SEARCH_GRPC_ADDRESS,
      services: [
        {
          name: 'cms.search.v1.SearchService',
          definition: protos().search.SearchService.service,
          implementation: {
            Handle: serveEndpoints({
              service: 'search',
              identifiers: identifiersOf(config),
              endpoints: ENDPOINTS,
              deps: {
                catalog,
                readYourWrites,
                content: remoteFullObjects(contentClient, config.CALL_TIMEOUT_MS),
                comments: remoteFullComments(discussionClient, config.CALL_TIMEOUT_MS),
                snapshots: contentSource,
                siteSearch,
                addableTypes,
              },
              contexts: { resolve: (...args) => contentContexts().resolve(...args) },
              logger,
            }),
            ...termsRpcs(catalog, logger, { readYourWrites }),
            ...queryCollectionRpc(catalog, logger, { readYourWrites }),
            ...searchRpcs(catalog, contentClient, discussionClient, logger, {
              now: clock,
              tombstoneRetentionMs: config.SEARCH_TOMBSTONE_RETENTION_MS,
              connectWaitMs: config.CALL_TIMEOUT_MS,
              checkpoints: new RebuildCheckpoints(store, 'reindex'),
            }),
          },
        },
      ],
      healthCheck: storeAndBusReady(store, bus),
    },
  );
  return { address: server.address };
}
