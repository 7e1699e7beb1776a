import * as grpc from '@grpc/grpc-js';
import {
  callUnary,
  checkHealth,
  createClient,
  createHealthClient,
  protos,
  requestMetadata,
  type ContentServiceClient,
  type HttpRequest,
  type HttpResponse__Output,
  type IdentityServiceClient,
  type Principal__Output,
  type ServiceName,
} from '@cms/shared';
import type { GatewayConfig } from './config';
import type { ChangeStream } from './change-subscription';
import type { InvalidationStream } from './invalidations';

interface HandleClient extends grpc.Client {
  Handle(
    request: HttpRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: HttpResponse__Output) => void,
  ): grpc.ClientUnaryCall;
}

/** `clientAddress`: the HTTP client's address, sent along in the call metadata (identity throttles logins by it). */
export interface Backends {
  handle(
    service: ServiceName,
    request: HttpRequest,
    requestId: string,
    clientAddress?: string,
  ): Promise<HttpResponse__Output>;
  authenticate(
    credentials: { basic: { login: string; password: string } } | { bearer_token: string },
    requestId: string,
    clientAddress?: string,
  ): Promise<Principal__Output>;
  /** Opens identity's stream of cache invalidations (no deadline: it stays open for the process's life). */
  watchInvalidations(requestId: string): InvalidationStream;
  /**
   * Opens content's stream of changes for the HTTP cache (no deadline; see change-subscription.ts): through the
   * content address, or to one content replica at its own address (replica-subscriptions.ts).
   */
  watchChanges(requestId: string, replicaAddress?: string): ChangeStream;
  /** Health of every service, by name. */
  health(timeoutMs: number): Promise<Record<ServiceName, boolean>>;
  close(): void;
}

export type BackendAddresses = Record<ServiceName, string>;

export function addressesFrom(config: GatewayConfig): BackendAddresses {
  return {
    content: config.CONTENT_ADDRESS,
    identity: config.IDENTITY_ADDRESS,
    search: config.SEARCH_ADDRESS,
    discussion: config.DISCUSSION_ADDRESS,
    config: config.CONFIG_ADDRESS,
  };
}

/** One long-lived channel per service; every call has the configured deadline. */
export function connectBackends(
  addresses: BackendAddresses,
  config: Pick<GatewayConfig, 'CALL_TIMEOUT_MS' | 'MAX_MESSAGE_BYTES'>,
): Backends {
  const p = protos();
  const max = config.MAX_MESSAGE_BYTES;
  const identity = createClient(p.identity.IdentityService, addresses.identity, max) as IdentityServiceClient;
  const content = createClient(p.content.ContentService, addresses.content, max) as HandleClient & ContentServiceClient;
  const clients: Record<ServiceName, HandleClient> = {
    content,
    identity,
    search: createClient(p.search.SearchService, addresses.search, max),
    discussion: createClient(p.discussion.DiscussionService, addresses.discussion, max),
    config: createClient(p.config.ConfigService, addresses.config, max),
  };
  const healthClients = Object.fromEntries(
    Object.entries(addresses).map(([name, address]) => [name, createHealthClient(address, max)]),
  ) as Record<ServiceName, ReturnType<typeof createHealthClient>>;
  const timeoutMs = config.CALL_TIMEOUT_MS;
  /** Channels to single content replicas, for their change streams only. */
  const replicaClients = new Map<string, ContentServiceClient>();

  return {
    handle(service, request, requestId, clientAddress) {
      const client = clients[service];
      return callUnary<HttpResponse__Output>((md, o, cb) => client.Handle(request, md, o, cb), {
        requestId,
        timeoutMs,
        clientAddress,
      });
    },
    authenticate(credentials, requestId, clientAddress) {
      return callUnary<Principal__Output>((md, o, cb) => identity.Authenticate(credentials, md, o, cb), {
        requestId,
        timeoutMs,
        clientAddress,
      });
    },
    watchInvalidations(requestId) {
      return identity.WatchInvalidations({}, requestMetadata(requestId));
    },
    watchChanges(requestId, replicaAddress) {
      let client = content as ContentServiceClient;
      if (replicaAddress !== undefined) {
        client =
          replicaClients.get(replicaAddress) ??
          (createClient(p.content.ContentService, replicaAddress, max) as ContentServiceClient);
        replicaClients.set(replicaAddress, client);
      }
      return client.WatchChanges(requestMetadata(requestId)) as unknown as ChangeStream;
    },
    async health(timeout) {
      const names = Object.keys(healthClients) as ServiceName[];
      const results = await Promise.all(names.map((name) => checkHealth(healthClients[name], timeout)));
      return Object.fromEntries(names.map((name, i) => [name, results[i]])) as Record<ServiceName, boolean>;
    },
    close() {
      for (const client of [...Object.values(clients), ...Object.values(healthClients), ...replicaClients.values()])
        client.close();
    },
  };
}
