import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import type { ProtoGrpcType as ContentProto } from '../generated/content';
import type { ProtoGrpcType as IdentityProto } from '../generated/identity';
import type { ProtoGrpcType as SearchProto } from '../generated/search';
import type { ProtoGrpcType as DiscussionProto } from '../generated/discussion';
import type { ProtoGrpcType as ConfigProto } from '../generated/config';
import type { ProtoGrpcType as ContextProto } from '../generated/context';

/** The one proto tree, beside `services/` (same depth from `src/` and `dist/`). */
export const PROTO_DIR = process.env.PROTO_DIR ?? join(__dirname, '../../../../proto');

/** The options `scripts/proto-gen.mjs` generates types with; they must stay the same. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

function load<T>(file: string): T {
  const definition = protoLoader.loadSync(file, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition) as unknown as T;
}

let cache: Protos | undefined;

export interface Protos {
  content: ContentProto['cms']['content']['v1'];
  /** The content process's context look-up (ContextService). */
  contexts: ContextProto['cms']['content']['v1'];
  identity: IdentityProto['cms']['identity']['v1'];
  search: SearchProto['cms']['search']['v1'];
  discussion: DiscussionProto['cms']['discussion']['v1'];
  config: ConfigProto['cms']['config']['v1'];
}

/** Loads every service contract once per process. */
export function protos(): Protos {
  cache ??= {
    content: load<ContentProto>('cms/content/v1/content.proto').cms.content.v1,
    contexts: load<ContextProto>('cms/content/v1/context.proto').cms.content.v1,
    identity: load<IdentityProto>('cms/identity/v1/identity.proto').cms.identity.v1,
    search: load<SearchProto>('cms/search/v1/search.proto').cms.search.v1,
    discussion: load<DiscussionProto>('cms/discussion/v1/discussion.proto').cms.discussion.v1,
    config: load<ConfigProto>('cms/config/v1/config.proto').cms.config.v1,
  };
  return cache;
}

/** grpc-js's own bound of the messages one channel keeps for resending (16 MiB). */
const DEFAULT_RETRY_BUFFER_BYTES = 16 * 1024 * 1024;

/** gRPC messages carry JSON bodies and uploads; keep room for the gateway's body limit. */
export function channelOptions(maxMessageBytes: number): grpc.ChannelOptions {
  return {
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_send_message_length': maxMessageBytes,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    // A peer that started late (or restarted) is reached again within seconds, not after grpc-js's default
    // backoff of up to two minutes, during which calls on the channel would fail at once.
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 2000,
  };
}

/**
 * A client's channel: calls go round robin over every address its target names (every replica of the service),
 * not all to the first one that answered. The name is looked up again whenever a connection ends (a replica gone,
 * or a server's GRPC_MAX_CONNECTION_AGE_MS reached), at most every few seconds, so replicas that come and go are
 * noticed.
 */
export function clientChannelOptions(maxMessageBytes: number): grpc.ChannelOptions {
  return {
    ...channelOptions(maxMessageBytes),
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.dns_min_time_between_resolutions_ms': 5000,
    // A call that meets a server's max-age GOAWAY in flight is refused (REFUSED_STREAM) before any handler ran;
    // grpc-js sends it again on a new connection only if it still holds the message, which it keeps up to this
    // size per call (1 MiB by default). Larger bodies were answered UNAVAILABLE instead (a 503 at the gateway).
    // The buffer holds the already serialized message until the server answers; it is not a copy.
    'grpc.per_rpc_retry_buffer_size': maxMessageBytes,
    'grpc.retry_buffer_size': Math.max(DEFAULT_RETRY_BUFFER_BYTES, 2 * maxMessageBytes),
  };
}

/** A server's channel: clients are made to reconnect every `maxConnectionAgeMs` (0: never), so they re-resolve. */
export function serverChannelOptions(
  maxMessageBytes: number,
  maxConnectionAgeMs: number,
  maxConnectionAgeGraceMs?: number,
): grpc.ChannelOptions {
  return {
    ...channelOptions(maxMessageBytes),
    ...(maxConnectionAgeMs > 0 ? { 'grpc.max_connection_age_ms': maxConnectionAgeMs } : {}),
    ...(maxConnectionAgeGraceMs ? { 'grpc.max_connection_age_grace_ms': maxConnectionAgeGraceMs } : {}),
  };
}
