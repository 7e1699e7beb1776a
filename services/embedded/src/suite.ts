import { startConfigService, configConfigSchema } from '@cms/config';
import { startContentService, contentConfigSchema } from '@cms/content';
import { startDiscussionService, discussionConfigSchema } from '@cms/discussion';
import {
  forkGatewayWorkers,
  gatewayConfigSchema,
  publicUrlOf,
  startGateway,
  type BackendAddresses,
} from '@cms/gateway';
import { startIdentityService, identityConfigSchema } from '@cms/identity';
import { startSearchService, searchConfigSchema } from '@cms/search';
import {
  CONSUMER_GROUPS,
  createLogger,
  loadConfig,
  openBus,
  openServiceStore,
  type DocumentStore,
  type RunningService,
  type ServiceName,
} from '@cms/shared';

export interface RunningSuite {
  /** The gateway's HTTP port. */
  port: number;
  publicUrl: string;
  addresses: BackendAddresses;
  stop(): Promise<void>;
}

/** Every service binds a free loopback port; the gateway finds them through these addresses. */
const LOOPBACK = '127.0.0.1:0';

/**
 * The embedded mode: every service in this process over loopback gRPC, each
 * with its own embedded store under DATA_DIR, sharing one in-process event bus
 * (or RabbitMQ when AMQP_URL is set), and the gateway in front.
 */
export async function startSuite(env: NodeJS.ProcessEnv = process.env): Promise<RunningSuite> {
  const withLoopback = {
    ...env,
    CONTENT_GRPC_ADDRESS: LOOPBACK,
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
  const gatewayConfig = loadConfig(gatewayConfigSchema, env);
  const logger = createLogger('embedded', gatewayConfig.LOG_LEVEL);
  const loggerFor = (name: string) => createLogger(name, gatewayConfig.LOG_LEVEL);

  const bus = await openBus(configs.content, CONSUMER_GROUPS, logger);
  const stores: DocumentStore[] = [];
  const storeFor = async (service: ServiceName) => {
    const store = await openServiceStore(service, configs[service]);
    stores.push(store);
    return store;
  };

  const services: RunningService[] = [];
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
    services.push(running);
    return running.address;
  };
  // Config first: identity reads registry records from it (and config depends on no other service).
  const config = await start('config', configs.config, startConfigService);
  const identity = await start('identity', { ...configs.identity, CONFIG_ADDRESS: config }, startIdentityService);
  const content = await start('content', { ...configs.content, IDENTITY_ADDRESS: identity }, startContentService);
  const search = await start('search', { ...configs.search, CONTENT_ADDRESS: content }, startSearchService);
  const discussion = await start('discussion', configs.discussion, startDiscussionService);
  const addresses: BackendAddresses = { identity, content, search, discussion, config };

  let stopGateway: () => Promise<void>;
  let port = gatewayConfig.PORT;
  let publicUrl = publicUrlOf(gatewayConfig, port);
  if (gatewayConfig.GATEWAY_WORKERS > 0) {
    const workers = forkGatewayWorkers(gatewayConfig.GATEWAY_WORKERS, { ...env, ...addressEnv(addresses) }, logger);
    stopGateway = () => workers.stop();
  } else {
    const gateway = await startGateway(gatewayConfig, addresses, loggerFor('gateway'));
    port = gateway.port;
    publicUrl = gateway.publicUrl;
    stopGateway = () => gateway.stop();
  }

  return {
    port,
    publicUrl,
    addresses,
    async stop() {
      await stopGateway();
      // In start order: identity and content stop publishing before content and search stop consuming.
      for (const service of services) await service.stop();
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
