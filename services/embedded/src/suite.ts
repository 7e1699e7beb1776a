import { CONFIG_CONSUMER_GROUPS, startConfigService, configConfigSchema } from '@cms/config';
import { CONTENT_CONSUMER_GROUPS, startContentService, contentConfigSchema } from '@cms/content';
import { DISCUSSION_CONSUMER_GROUPS, startDiscussionService, discussionConfigSchema } from '@cms/discussion';
import {
  forkGatewayWorkers,
  gatewayConfigSchema,
  publicUrlOf,
  startGateway,
  type BackendAddresses,
} from '@cms/gateway';
import { startIdentityService, identityConfigSchema } from '@cms/identity';
import { SEARCH_CONSUMER_GROUPS, startSearchService, searchConfigSchema } from '@cms/search';
import {
  createLogger,
  loadConfig,
  makePrivateDirSync,
  serviceKeySetting,
  useServiceKeys,
  type DocumentStore,
  type RunningService,
  type ServiceName,
} from '@cms/shared';
import { openBus, openServiceStore } from '@cms/shared/adapters';
import { removeAddressesFile, writeAddressesFile } from './addresses';

export interface RunningSuite {
  /** The gateway's HTTP port. */
  port: number;
  publicUrl: string;
  addresses: BackendAddresses;
  /** `host:port` of content's file hop, which the gateway streams files from. */
  contentFiles: string;
  stop(): Promise<void>;
}

/** Every service binds a free loopback port; the gateway finds them through these addresses. */
const LOOPBACK = '127.0.0.1:0';

/** Producers stop publishing before their consumers stop consuming: identity before content, content before search. */
const STOP_ORDER: ServiceName[] = ['identity', 'content', 'search', 'discussion', 'config'];

/**
 * The embedded mode: every service in this process over loopback gRPC, each
 * with its own embedded store under DATA_DIR, sharing one in-process event bus
 * (or RabbitMQ when AMQP_URL is set), and the gateway in front.
 */
/** The gateway cache's size in the embedded mode, where it is exact. */
const EMBEDDED_GATEWAY_CACHE_BYTES = 64 * 1024 * 1024;

export async function startSuite(env: NodeJS.ProcessEnv = process.env): Promise<RunningSuite> {
  const withLoopback = {
    ...env,
    CONTENT_GRPC_ADDRESS: LOOPBACK,
    CONTENT_FILES_HTTP_ADDRESS: LOOPBACK,
    IDENTITY_GRPC_ADDRESS: LOOPBACK,
    SEARCH_GRPC_ADDRESS: LOOPBACK,
    DISCUSSION_GRPC_ADDRESS: LOOPBACK,
    CONFIG_GRPC_ADDRESS: LOOPBACK,
  };
  const configs = {
    identity: loadConfig(identityConfigSchema, withLoopback),
    content: loadConfig(contentConfigSchema, withLoopback),
    search: loadConfig(searchConfigSchema, withLoopback),
    discussion: loadConfig(discussionConfigSchema, withLoopback),
    config: loadConfig(configConfigSchema, withLoopback),
  };
  // One content process here, so the gateway cache is exact (its change feed is per content process): on unless
  // GATEWAY_CACHE_BYTES says otherwise.
  const gatewayEnv = { GATEWAY_CACHE_BYTES: String(EMBEDDED_GATEWAY_CACHE_BYTES), ...env };
  const gatewayConfig = loadConfig(gatewayConfigSchema, gatewayEnv);
  // Every process of the suite signs its calls with one key: SERVICE_AUTH_KEY, else one made for this process
  // (service-auth.ts), handed to the gateway workers and, through the addresses file, to the tools.
  useServiceKeys(configs.content);
  const serviceKey = serviceKeySetting();
  // The data folder holds secrets: owner-only before any service writes to it.
  makePrivateDirSync(configs.content.DATA_DIR);
  const logger = createLogger('embedded', gatewayConfig.LOG_LEVEL);
  const loggerFor = (name: string) => createLogger(name, gatewayConfig.LOG_LEVEL);

  // Every service runs here, so the bus declares every service's consumer groups.
  const bus = await openBus(
    configs.content,
    [...SEARCH_CONSUMER_GROUPS, ...CONTENT_CONSUMER_GROUPS, ...DISCUSSION_CONSUMER_GROUPS, ...CONFIG_CONSUMER_GROUPS],
    logger,
  );
  const stores: DocumentStore[] = [];
  const storeFor = async (service: ServiceName) => {
    const store = await openServiceStore(service, configs[service], logger);
    stores.push(store);
    return store;
  };

  const services = new Map<ServiceName, RunningService>();
  const start = async <C>(
    service: ServiceName,
    config: C,
    starter: (deps: {
      config: C;
      logger: ReturnType<typeof createLogger>;
      store: DocumentStore;
      bus: typeof bus;
    }) => Promise<RunningService>,
  ) => {
    const running = await starter({ config, logger: loggerFor(service), store: await storeFor(service), bus });
    services.set(service, running);
    return running.address;
  };
  // Config first: identity reads registry records from it. It calls content and identity (content rules) only
  // once requests and events arrive, so it reads their addresses then.
  const late: { content?: string; discussion?: string; identity?: string } = {};
  const config = await start(
    'config',
    {
      ...configs.config,
      get CONTENT_ADDRESS(): string {
        if (late.content === undefined) throw new Error('content has not started yet');
        return late.content;
      },
      get IDENTITY_ADDRESS(): string {
        if (late.identity === undefined) throw new Error('identity has not started yet');
        return late.identity;
      },
    },
    startConfigService,
  );
  const identity = await start('identity', { ...configs.identity, CONFIG_ADDRESS: config }, startIdentityService);
  late.identity = identity;
  // Consumers subscribe before producers write: search before content, whose start writes the site root (the
  // in-process bus confirms a publish once every group has handled it). Search calls content only once requests
  // arrive, so it reads content's address then. Identity publishes removals only, on requests.
  const search = await start(
    'search',
    {
      ...configs.search,
      CONFIG_ADDRESS: config,
      get CONTENT_ADDRESS(): string {
        if (late.content === undefined) throw new Error('content has not started yet');
        return late.content;
      },
      // Comment events come only once discussion has started.
      get DISCUSSION_ADDRESS(): string {
        if (late.discussion === undefined) throw new Error('discussion has not started yet');
        return late.discussion;
      },
    },
    startSearchService,
  );
  const content = await start(
    'content',
    {
      ...configs.content,
      IDENTITY_ADDRESS: identity,
      SEARCH_ADDRESS: search,
      CONFIG_ADDRESS: config,
      // Called only by `@import` and `@export`, once requests arrive.
      get DISCUSSION_ADDRESS(): string {
        if (late.discussion === undefined) throw new Error('discussion has not started yet');
        return late.discussion;
      },
    },
    startContentService,
  );
  late.content = content;
  const discussion = await start(
    'discussion',
    { ...configs.discussion, CONTENT_ADDRESS: content, IDENTITY_ADDRESS: identity, CONFIG_ADDRESS: config },
    startDiscussionService,
  );
  late.discussion = discussion;
  const addresses: BackendAddresses = { identity, content, search, discussion, config };
  // The gateway streams file bytes from content's file hop, bound like the rest to a free loopback port.
  const contentFiles = services.get('content')?.httpAddress ?? gatewayConfig.CONTENT_FILES_ADDRESS;
  // So that `npm run reindex` and other one-off commands find the services bound to random loopback ports.
  writeAddressesFile(configs.search.DATA_DIR, addresses, serviceKey);

  let stopGateway: () => Promise<void>;
  let port = gatewayConfig.PORT;
  let publicUrl = publicUrlOf(gatewayConfig, port);
  if (gatewayConfig.GATEWAY_WORKERS > 0) {
    const workers = forkGatewayWorkers(
      gatewayConfig.GATEWAY_WORKERS,
      {
        ...gatewayEnv,
        ...addressEnv(addresses),
        CONTENT_FILES_ADDRESS: contentFiles,
        SERVICE_AUTH_KEY: serviceKey,
      },
      logger,
    );
    stopGateway = () => workers.stop();
  } else {
    const gateway = await startGateway(
      { ...gatewayConfig, CONTENT_FILES_ADDRESS: contentFiles },
      addresses,
      loggerFor('gateway'),
    );
    port = gateway.port;
    publicUrl = gateway.publicUrl;
    stopGateway = () => gateway.stop();
  }

  return {
    port,
    publicUrl,
    addresses,
    contentFiles,
    async stop() {
      removeAddressesFile(configs.search.DATA_DIR);
      await stopGateway();
      for (const service of STOP_ORDER) await services.get(service)?.stop();
      await bus.close();
      for (const store of stores) await store.close();
    },
  };
}

export function addressEnv(addresses: BackendAddresses): NodeJS.ProcessEnv {
  return {
    CONTENT_ADDRESS: addresses.content,
    IDENTITY_ADDRESS: addresses.identity,
    SEARCH_ADDRESS: addresses.search,
    DISCUSSION_ADDRESS: addresses.discussion,
    CONFIG_ADDRESS: addresses.config,
  };
}
