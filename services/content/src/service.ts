import {
  protos,
  serveEndpoints,
  startGrpcServer,
  storeAndBusReady,
  type RunningService,
  type ServiceDeps,
} from '@cms/shared';
import { contentLookups } from './api/grpc';
import { contentContexts, contextRpcs } from './api/contexts';
import { ruleActionRpcs } from './api/rule-actions';
import { ENDPOINTS } from './api/endpoints';
import { componentExpander } from './api/expansion';
import { identityDirectory } from './clients/identity-directory';
import { vocabularyTerms } from './clients/vocabulary-terms';
import { searchCollectionResults } from './clients/collection-results';
import { ContentSerializer } from './domain/serialize';
import { SharingCommands } from './domain/sharing-commands';
import { FieldSources, Vocabularies } from './domain/vocabularies';
import { WorkflowCommands } from './domain/workflow-commands';
import type { ContentConfig } from './config';
import { ContentCommands } from './domain/content-commands';
import { FolderOrdering } from './domain/folder-order';
import { HistoryCommands } from './domain/history';
import { LockCommands } from './domain/lock-commands';
import { LockCheck } from './domain/locks';
import { bindSnapshotTypes } from './domain/snapshot';
import { builtinTypeRegistry } from './domain/types';
import { VersionKeeper } from './domain/versions';
import { ContentWriter } from './domain/write-path';
import { ContentEventRelay } from './events/relay';
import { subscribeToIdentity } from './events/identity-consumer';
import { openBlobStore } from './store/blobs/open';
import { StoreContentRepository } from './store/content-repository';
import { StoreVersionArchive } from './store/version-archive';
import { SubtreeFollower } from './domain/subtree';
import { TreeCommands } from './domain/tree-commands';
import { WorkingCopies } from './domain/working-copies';
import { BlobFileStorage } from './store/blob-file-storage';
import { StoreScaleStore } from './store/image-scale-store';
import { sharpScaler } from './store/sharp-scaler';

/** How often unfinished subtree walks and re-orderings (left by a crash) are looked for. */
const TREE_SWEEP_INTERVAL_MS = 30_000;

export async function startContentService({
  config,
  logger,
  store,
  bus,
}: ServiceDeps<ContentConfig>): Promise<RunningService> {
  const repo = new StoreContentRepository(store);
  await repo.ensureIndexes();
  // File and image bytes live beside the documents: GridFS on MongoDB, files under DATA_DIR when embedded.
  const blobs = await openBlobStore(config);
  const scaleStore = new StoreScaleStore(store);
  await scaleStore.ensureIndexes();
  const fileStorage = new BlobFileStorage(blobs, config.MAX_UPLOAD_BYTES, logger, {
    store: scaleStore,
    scaler: sharpScaler,
  });
  const relay = new ContentEventRelay(repo, bus, logger, config.EVENT_FLUSH_TIMEOUT_MS);
  await relay.outbox.ensureIndexes();
  const types = builtinTypeRegistry();
  bindSnapshotTypes(types);
  const versionArchive = new StoreVersionArchive(store);
  await versionArchive.ensureIndexes();
  const versions = new VersionKeeper(versionArchive, types);
  const writer = new ContentWriter(repo, relay, { locks: new LockCheck(), versions });
  const follower = new SubtreeFollower(repo, writer);
  const ordering = new FolderOrdering(repo, writer);
  const commands = new ContentCommands(repo, writer, fileStorage, types, follower, ordering);
  const directory = identityDirectory(config.IDENTITY_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES);
  const sharing = new SharingCommands(repo, writer, directory, follower);
  const tree = new TreeCommands(repo, writer, follower, fileStorage, types);
  const workflow = new WorkflowCommands(repo, writer, follower, types);
  const workingCopies = new WorkingCopies(repo, writer, follower, fileStorage, types, directory);
  // Check-outs, check-ins and cancels a crash left half-written are finished by the tree sweep.
  follower.register(workingCopies);
  const serializer = new ContentSerializer(types);
  const components = componentExpander({
    repo,
    types,
    workflow,
    // Below the caller's own deadline, so a slow component is a clear 504 rather than a cut-off call.
    deadlineMs: Math.max(1, Math.floor(config.CALL_TIMEOUT_MS * 0.9)),
    // The navigation root as GET renders it (it has no parent: it is the site root).
    render: async (ctx, doc) =>
      serializer.serialize(doc, { publicUrl: ctx.publicUrl, parent: await commands.parentOf(doc) }),
  });
  const termOwners = vocabularyTerms(
    { search: config.SEARCH_ADDRESS, identity: config.IDENTITY_ADDRESS },
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
  );
  const vocabularies = new Vocabularies(types, termOwners.catalog, termOwners.principals);
  const deps = {
    vocabularies,
    sources: new FieldSources(types, vocabularies),
    commands,
    repo,
    types,
    serializer,
    expansion: components,
    tree,
    workflow,
    sharing,
    files: fileStorage,
    locks: new LockCommands(writer),
    history: new HistoryCommands(versions, writer),
    workingCopies,
    directory,
    collections: searchCollectionResults(config.SEARCH_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES),
  };
  const identityEvents = await subscribeToIdentity(bus, sharing, logger);
  await commands.ensureSiteRoot(config.SITE_TITLE, config.SITE_ID, config.ADMIN_USER);
  relay.outbox.start();
  const sweepTree = async () => {
    try {
      const requestId = `sweep-${Date.now()}`;
      const resumed =
        (await follower.sweep(new Date(), requestId)) +
        (await ordering.sweep(requestId)) +
        (await versions.sweep()) +
        (await workflow.sweep(new Date()));
      if (resumed) logger.info({ resumed }, 'finished interrupted tree operations');
    } catch (error) {
      logger.error({ err: error }, 'tree sweep failed');
    }
  };
  await sweepTree();
  const treeSweep = setInterval(() => void sweepTree(), TREE_SWEEP_INTERVAL_MS);
  treeSweep.unref();

  const server = await startGrpcServer({
    address: config.CONTENT_GRPC_ADDRESS,
    services: [
      {
        name: 'cms.content.v1.ContentService',
        definition: protos().content.ContentService.service,
        implementation: {
          Handle: serveEndpoints({
            service: 'content',
            endpoints: ENDPOINTS,
            deps,
            contexts: contentContexts(repo),
            logger,
          }),
          ...contentLookups(repo, logger, deps),
          ...ruleActionRpcs(deps, logger),
        },
      },
      {
        name: 'cms.content.v1.ContextService',
        definition: protos().contexts.ContextService.service,
        implementation: contextRpcs(repo, logger, types),
      },
    ],
    healthCheck: async () => {
      await storeAndBusReady(store, bus)();
      await blobs.ping();
    },
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    logger,
  });

  return {
    address: server.address,
    async stop() {
      clearInterval(treeSweep);
      await server.stop(config.SHUTDOWN_TIMEOUT_MS);
      await identityEvents.stop();
      await relay.outbox.stop();
      directory.close();
      termOwners.close();
      deps.collections.close();
      await blobs.close();
    },
  };
}
