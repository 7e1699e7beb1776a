import { hostname } from 'node:os';
import {
  awaitPublishedRpc,
  identifiersOf,
  protos,
  RebuildCheckpoints,
  RegistrySettings,
  serveEndpoints,
  serveGrpc,
  serviceLifecycle,
  storeAndBusReady,
  type ServiceDeps,
  type ServiceParts,
  type Subscription,
} from '@cms/shared';
import { contentLookups } from './api/grpc';
import { contentContexts, contextRpcs } from './api/contexts';
import { startFileHop } from './api/file-hop';
import { ruleActionRpcs } from './api/rule-actions';
import { typeCountRpcs } from './api/type-counts';
import { ENDPOINTS } from './api/endpoints';
import { componentExpander } from './api/expansion';
import { identityDirectory } from './clients/identity-directory';
import { vocabularyTerms } from './clients/vocabulary-terms';
import { searchCollectionResults } from './clients/collection-results';
import { ContentSerializer } from './domain/content';
import { SharingCommands } from './domain/sharing';
import { FieldSources, Vocabularies } from './domain/vocabularies';
import { WorkflowCommands } from './domain/workflow';
import type { ContentConfig } from './config';
import { AliasCommands } from './domain/tree';
import { ContentCommands } from './domain/content';
import { contentDataMigrations, DataMigrations } from './domain/site';
import { FolderOrdering } from './domain/tree';
import { HistoryCommands } from './domain/history';
import { LockCommands } from './domain/locks';
import { LockCheck } from './domain/locks';
import { bindSnapshotScaleSizes, bindSnapshotTypes } from './domain/content';
import { BUILTIN_TYPES, LiveTypeRegistry } from './domain/types';
import { configTypeSource, withCurrentTypes } from './clients/config-types';
import { VersionKeeper } from './domain/history';
import { ContentWriter } from './domain/content';
import { ChangeFeed, changeFeedRpcs } from './events/change-feed';
import { aloneOnStore, LostReplicaWork, ReplicaMembership } from './events/replica-membership';
import { watchConfigChanges } from './events/config-changes';
import { registryPurgeSettings, subscribeToPurges } from './events/purge-consumer';
import { ContentEventRelay } from './events/relay';
import { subscribeToIdentity } from './events/identity-consumer';
import { subscribeTranslations } from './events/translations-consumer';
import { subscribeReferences } from './events/references-consumer';
import { linkIntegritySetting } from './clients/link-integrity-setting';
import { linkTargetsOf } from './domain/relations';
import { References } from './domain/relations';
import { Relations } from './domain/relations';
import { ReferenceIndex } from './store/reference-index';
import { languageRootRpcs } from './api/language-roots';
import { siteLanguages } from './clients/site-languages';
import { registrySiteSettings } from './clients/site-settings';
import { siteTitleRpcs } from './api/site-title-rpc';
import { importRpcs } from './exchange/import-rpc';
import { exportRpcs } from './exchange/export-rpc';
import { SiteTitle } from './domain/site';
import { Translations, withLanguageRootType } from './domain/translations';
import { StoreTranslationGroups } from './store/translation-groups';
import { openBlobStore } from './store/blobs/open';
import { StoreAliasIndex } from './store/alias-index';
import { StoreContentRepository } from './store/content-repository';
import { StoreDataVersion } from './store/data-version';
import { StoreReplicaRegistry } from './store/replica-registry';
import { StoreTransactionLog } from './store/transaction-log';
import { StoreVersionArchive } from './store/version-archive';
import { SubtreeFollower } from './domain/tree';
import { TransactionCommands, TransactionJournal } from './domain/history';
import { TreeCommands } from './domain/tree';
import { WorkingCopies } from './domain/working-copies';
import { StoreAppliedRuleActions } from './store/applied-rule-actions';
import { BlobFileStorage } from './store/blob-file-storage';
import { TusUploads, type TusUploadRecord } from './domain/files';
import { StoreScaleStore } from './store/image-scale-store';
import { sharpScaler } from './store/sharp-scaler';

/** This replica's address for gateways (CONTENT_ADVERTISE_ADDRESS), or undefined until the server has bound a port. */
function advertisedAddress(config: ContentConfig): string | undefined {
  if (config.CONTENT_ADVERTISE_ADDRESS) return config.CONTENT_ADVERTISE_ADDRESS;
  const separator = config.CONTENT_GRPC_ADDRESS.lastIndexOf(':');
  const host = config.CONTENT_GRPC_ADDRESS.slice(0, separator);
  const port = config.CONTENT_GRPC_ADDRESS.slice(separator + 1);
  if (port === '0') return undefined;
  return `${host === '0.0.0.0' || host === '[::]' ? hostname() : host}:${port}`;
}

/** How often unfinished subtree walks and re-orderings (left by a crash) are looked for. */
const TREE_SWEEP_INTERVAL_MS = 30_000;

export const startContentService = serviceLifecycle(startContent);

async function startContent({ config, logger, store, bus }: ServiceDeps<ContentConfig>, parts: ServiceParts) {
  const repo = new StoreContentRepository(store);
  await repo.ensureIndexes();
  // File and image bytes live beside the documents: GridFS on MongoDB, files under DATA_DIR when embedded.
  const blobs = await openBlobStore(config);
  parts.onStop('blob store', () => blobs.close());
  const scaleStore = new StoreScaleStore(store);
  await scaleStore.ensureIndexes();
  const fileStorage = new BlobFileStorage(blobs, config.MAX_UPLOAD_BYTES, logger, {
    store: scaleStore,
    scaler: sharpScaler,
  });
  // Resumable uploads: their chunks are blobs, their records documents of their own collection.
  const tus = new TusUploads(store.collection<TusUploadRecord>('tus_uploads'), blobs, config.MAX_UPLOAD_BYTES);
  await tus.ensureIndexes();
  // Its epoch names this replica in the store: in its membership record and in its relay's outbox claims.
  const changes = new ChangeFeed({ log: logger });
  const relay = new ContentEventRelay(repo, bus, logger, config.EVENT_FLUSH_TIMEOUT_MS, changes.epoch);
  await relay.outbox.ensureIndexes();
  // Stopped after the consumers, whose writes it publishes (it starts later, once the site is in order).
  parts.onStop('outbox relay', () => relay.outbox.stop());
  // The types config defines, brought up to date before each call this service serves (clients/config-types.ts).
  // With the language root folder, content's own type (domain/translations/translations.ts).
  const types = withLanguageRootType(new LiveTypeRegistry(), BUILTIN_TYPES);
  const typeSource = configTypeSource(types, {
    address: config.CONFIG_ADDRESS,
    timeoutMs: config.CALL_TIMEOUT_MS,
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    log: logger,
  });
  parts.onStop('types client', () => typeSource.close());
  // Config may start after content: the built-in types until it answers.
  await typeSource.refresh('content-start');
  bindSnapshotTypes(types);
  const versionArchive = new StoreVersionArchive(store);
  await versionArchive.ensureIndexes();
  const versions = new VersionKeeper(versionArchive, types);
  const configChanges = watchConfigChanges(config.CONFIG_ADDRESS, config.MAX_MESSAGE_BYTES, changes, logger);
  parts.onStop('config watch', () => configChanges.close());
  // The other content replicas on this store, so that every gateway hears of this one's writes.
  const replicaRegistry = new StoreReplicaRegistry(store);
  await replicaRegistry.ensureIndexes();
  // Replicas killed or cut off: what they left half done (a subtree walk, a delete's outbox claim) is taken over at
  // once, rather than after the grace and the lease that keep this one from taking over a live replica's work.
  // Those found before the tree sweep is ready are taken over when it is.
  const lostReplicas = new LostReplicaWork();
  const membershipOf = (address: string) =>
    new ReplicaMembership({ epoch: changes.epoch, address }, changes, replicaRegistry, {
      log: logger,
      onLost: (epochs) => lostReplicas.lost(epochs),
    });
  // Known before the server binds (every deployment but a port chosen by the system): beating from the start,
  // so that what the start-up sweep writes waits too.
  const advertised = advertisedAddress(config);
  let membership = advertised === undefined ? undefined : membershipOf(advertised);
  await membership?.start();
  // Should the start fail further on (it is stopped again, earlier, once the server is up).
  parts.onStop('replica membership', () => membership?.stop());
  // The transaction log of `@transactions`: every caller's committed write, with what undoing it needs.
  const transactionLog = new StoreTransactionLog(store);
  await transactionLog.ensureIndexes();
  const writer = new ContentWriter(repo, relay, {
    journal: new TransactionJournal(transactionLog, config.TRANSACTION_LOG_SIZE, (error) =>
      logger.warn({ err: error }, 'a committed write could not be recorded in the transaction log'),
    ),
    locks: new LockCheck(),
    versions,
    onCommit: async (paths) => {
      await membership?.whenAnnounced();
      await changes.record(paths);
    },
  });
  const follower = new SubtreeFollower(repo, writer);
  const ordering = new FolderOrdering(repo, writer);
  const commands = new ContentCommands(repo, writer, fileStorage, types, follower, ordering);
  const directory = identityDirectory(config.IDENTITY_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES);
  parts.onStop('identity client', () => directory.close());
  const sharing = new SharingCommands(repo, writer, directory, follower);
  const tree = new TreeCommands(repo, writer, follower, fileStorage, types);
  const workflow = new WorkflowCommands(repo, writer, follower, types);
  const workingCopies = new WorkingCopies(repo, writer, follower, fileStorage, types, directory);
  // Check-outs, check-ins and cancels a crash left half-written are finished by the tree sweep.
  follower.register(workingCopies);
  const serializer = new ContentSerializer(types);
  // Translation groups: an index of content's own, fed by its own consumer group of content events.
  const translationGroups = new StoreTranslationGroups(store);
  await translationGroups.ensureIndexes();
  const languages = siteLanguages(config.CONFIG_ADDRESS, config.CALL_TIMEOUT_MS, config.MAX_MESSAGE_BYTES, logger);
  // Subscribed below, once everything its handler needs exists.
  const translationEvents: { subscription?: Subscription } = {};
  const translations = new Translations({
    repo,
    writer,
    index: translationGroups,
    languages,
    drained: async () =>
      (await translationEvents.subscription?.waitUntilDrained(config.READ_YOUR_WRITES_TIMEOUT_MS)) ?? true,
    log: logger,
    admin: config.ADMIN_USER,
  });
  // The registry's settings content applies; connected on first use (config may start after content).
  const siteSettings = registrySiteSettings(
    config.CONFIG_ADDRESS,
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
    logger,
  );
  bindSnapshotScaleSizes(() => siteSettings.lastKnown().scaleSizes);
  const components = componentExpander({
    repo,
    types,
    workflow,
    settings: siteSettings,
    // Below the caller's own deadline, so a slow component is a clear 504 rather than a cut-off call.
    deadlineMs: Math.max(1, Math.floor(config.CALL_TIMEOUT_MS * 0.9)),
    // The navigation root as GET renders it (it has no parent: it is the site root).
    render: async (ctx, doc) =>
      serializer.serialize(doc, {
        publicUrl: ctx.publicUrl,
        parent: await commands.parentOf(doc),
        linkTargets: await linkTargetsOf(doc.fields ?? {}, types.get(doc.portal_type), (uids) => repo.byUids(uids)),
      }),
    translations: {
      multilingual: () => translations.multilingual('components'),
      links: (doc, principal, publicUrl) => translations.linksOf(doc, principal, publicUrl),
    },
  });
  const termOwners = vocabularyTerms(
    { search: config.SEARCH_ADDRESS, identity: config.IDENTITY_ADDRESS },
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
  );
  const vocabularies = new Vocabularies(types, termOwners.catalog, termOwners.principals);
  const appliedRuleActions = new StoreAppliedRuleActions(store);
  await appliedRuleActions.ensureIndexes();
  const aliasIndex = new StoreAliasIndex(repo.docs);
  await aliasIndex.ensureIndexes();
  // Context paths: an object's own, else the alias a move or rename left (answered with a redirect).
  const contextLookup = {
    byPath: (path: string) => repo.byPath(path),
    ownerOf: (path: string) => aliasIndex.ownerOf(path),
  };
  const migrations = new DataMigrations(new StoreDataVersion(store), contentDataMigrations(repo, writer));
  // The reference index (`@linkintegrity`, `@relations`): content's own, fed by its own consumer group.
  const referenceIndex = new ReferenceIndex(store);
  await referenceIndex.ensureIndexes();
  const references = new References(repo, referenceIndex, types);
  const integritySetting = linkIntegritySetting(
    config.CONFIG_ADDRESS,
    config.CALL_TIMEOUT_MS,
    config.MAX_MESSAGE_BYTES,
    logger,
  );
  // Subscribed below, before the site root is written; read-your-writes waits for it once it is.
  const referenceEvents: { subscription?: Subscription } = {};
  const deps = {
    references: {
      references,
      relations: new Relations(repo, referenceIndex, types, commands),
      caughtUp: async () =>
        (await referenceEvents.subscription?.waitUntilDrained(config.READ_YOUR_WRITES_TIMEOUT_MS)) ?? true,
      integrityChecksOn: (requestId: string) => integritySetting.enabled(requestId),
    },
    aliases: new AliasCommands(aliasIndex, writer),
    migrations,
    vocabularies,
    sources: new FieldSources(types, vocabularies),
    typeSource,
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
    translations,
    settings: siteSettings,
    storeStats: async () => (store.stats ? store.stats() : null),
    transactions: new TransactionCommands(
      transactionLog,
      repo,
      writer,
      types,
      (doc, caller) => commands.remove(doc, caller),
      config.TRANSACTION_LOG_SIZE,
    ),
    tus,
  };
  parts.onStop('clients', () => {
    integritySetting.close();
    siteSettings.close();
    languages.close();
    termOwners.close();
    deps.collections.close();
  });
  const identityEvents = await subscribeToIdentity(bus, sharing, directory, logger);
  parts.onStop('identity events', () => identityEvents.stop());
  // Made on first use: most sites configure no caching proxy, and config may start after content.
  let purgeRegistry: RegistrySettings | undefined;
  const purgeSettings = registryPurgeSettings(
    () =>
      (purgeRegistry ??= new RegistrySettings({
        address: config.CONFIG_ADDRESS,
        timeoutMs: config.CALL_TIMEOUT_MS,
        maxMessageBytes: config.MAX_MESSAGE_BYTES,
        log: logger,
      })),
  );
  parts.onStop('purge settings', () => purgeRegistry?.close());
  const purges = await subscribeToPurges(bus, purgeSettings, logger);
  parts.onStop('purge events', () => purges.stop());
  translationEvents.subscription = await subscribeTranslations(bus, translations, logger);
  parts.onStop('translation events', () => translationEvents.subscription?.stop());
  referenceEvents.subscription = await subscribeReferences(bus, references, logger);
  parts.onStop('reference events', () => referenceEvents.subscription?.stop());
  const newSite = !(await repo.byPath('/'));
  await commands.ensureSiteRoot(config.SITE_TITLE, config.SITE_ID, config.ADMIN_USER);
  await migrations.initialize(newSite);
  // Alone on the store after a crash, nothing in it belongs to a live replica: what the killed process left half done
  // (an outbox claim: a folder's delete; a subtree mark: a rename or a move) is finished now, before this one
  // answers, rather than after the grace that keeps a sweep from taking over a live replica's work.
  const alone = await aloneOnStore(replicaRegistry, { epoch: changes.epoch, address: advertised });
  if (alone) {
    const freed = await relay.outbox.releaseClaims();
    if (freed) logger.info({ freed }, "freed the outbox claims of a killed process's relay");
  }
  relay.outbox.start();
  const sweepTree = async (graceMs = config.TREE_SWEEP_GRACE_MS) => {
    try {
      const requestId = `sweep-${Date.now()}`;
      const resumed =
        (await follower.sweep(new Date(), requestId, graceMs)) +
        (await ordering.sweep(requestId)) +
        (await versions.sweep()) +
        (await workflow.sweep(new Date(), graceMs));
      if (resumed) logger.info({ resumed }, 'finished interrupted tree operations');
    } catch (error) {
      logger.error({ err: error }, 'tree sweep failed');
    }
  };
  await sweepTree(alone ? 0 : undefined);
  lostReplicas.handleWith(async (epochs) => {
    const freed = await relay.outbox.releaseClaimsOf(epochs);
    if (freed) logger.info({ freed }, "freed the outbox claims of a lost replica's relay");
    await sweepTree(0);
  }, logger);
  parts.onStop('lost replica work', () => lostReplicas.stop());
  const treeSweep = setInterval(() => void sweepTree(), TREE_SWEEP_INTERVAL_MS);
  treeSweep.unref();
  parts.onStop('tree sweep', () => clearInterval(treeSweep));

  const server = await serveGrpc(
    parts,
    { config, logger },
    {
      address: config.CONTENT_GRPC_ADDRESS,
      services: [
        {
          name: 'cms.content.v1.ContentService',
          definition: protos().content.ContentService.service,
          implementation: {
            ...withCurrentTypes(
              typeSource,
              {
                Handle: serveEndpoints({
                  service: 'content',
                  identifiers: identifiersOf(config),
                  endpoints: ENDPOINTS,
                  deps,
                  contexts: contentContexts(contextLookup),
                  logger,
                }),
                ...contentLookups(repo, logger, deps),
                ...ruleActionRpcs(deps, appliedRuleActions, logger),
                ...languageRootRpcs(translations, repo, logger, new RebuildCheckpoints(store, 'translations')),
                ...siteTitleRpcs(new SiteTitle(repo, writer), logger),
                ...importRpcs(repo, deps, logger),
                ...exportRpcs(repo, deps, logger),
              },
              logger,
            ),
            // These read no type: they answer while config is away.
            ...changeFeedRpcs(changes),
            ...typeCountRpcs(repo, logger),
            ...awaitPublishedRpc(relay.outbox, logger),
          },
        },
        {
          name: 'cms.content.v1.ContextService',
          definition: protos().contexts.ContextService.service,
          implementation: withCurrentTypes(typeSource, contextRpcs(contextLookup, logger, types), logger),
        },
      ],
      healthCheck: async () => {
        await storeAndBusReady(store, bus)();
        await blobs.ping();
      },
    },
  );
  // Registered after the server, so done before it stops: the gateways' change streams would hold it open until
  // its deadline, and the other replicas drop this one at once rather than when its record expires.
  parts.onStop('change streams', () => changes.close());
  if (!membership) {
    membership = membershipOf(server.address);
    await membership.start();
  }
  parts.onStop('replica membership', () => membership?.stop());

  // File bytes go to the gateway over plain HTTP, streamed (api/file-hop.ts).
  // `@export` and `@import` stream their ZIP over it too; they call this server, identity and discussion as the CLIs do.
  const siteZip = {
    repo,
    contentAddress: server.address,
    identityAddress: config.IDENTITY_ADDRESS,
    discussionAddress: () => config.DISCUSSION_ADDRESS,
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    limits: {
      zipBytes: config.IMPORT_MAX_ZIP_BYTES,
      unpackedBytes: config.IMPORT_MAX_UNPACKED_BYTES,
      // An object's file travels to ImportObject inside one message.
      entryBytes: config.MAX_MESSAGE_BYTES,
      // The gateway gives up on a hop idle for CALL_TIMEOUT_MS: a stalled client is answered before that.
      bodyIdleMs: Math.max(1, Math.floor(config.CALL_TIMEOUT_MS / 2)),
    },
  };
  const fileHop = await startFileHop(
    config.CONTENT_FILES_HTTP_ADDRESS,
    deps,
    contentContexts(contextLookup),
    siteZip,
    logger,
  );
  parts.onStop('file hop', () => fileHop.stop());
  return { address: server.address, httpAddress: fileHop.address };
}
