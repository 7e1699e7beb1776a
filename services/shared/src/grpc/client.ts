import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { grpcClientDuration, grpcMethodLabels, secondsSince } from '../metrics/metrics';
import { fromServiceError } from './errors';
import { clientChannelOptions } from './loader';
import { CLIENT_ADDRESS_KEY, REQUEST_ID_KEY } from './server';
import { serviceProofInterceptor } from './service-auth';

export interface CallOptions {
  requestId: string;
  /** Every call has a deadline. */
  timeoutMs: number;
  /** The HTTP client's address, for calls made on its behalf (identity throttles logins by it). */
  clientAddress?: string;
}

type UnaryInvoker<Res> = (
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: Res) => void,
) => void;

/**
 * Runs one unary call with a deadline and the request id (and client address) in metadata; a
 * failure comes back as the AppError the service raised.
 *   await callUnary((md, o, cb) => client.GetByPath({ path }, md, o, cb), { requestId, timeoutMs })
 */
export function callUnary<Res>(invoke: UnaryInvoker<Res>, options: CallOptions): Promise<Res> {
  const metadata = new grpc.Metadata();
  metadata.set(REQUEST_ID_KEY, options.requestId);
  if (options.clientAddress) metadata.set(CLIENT_ADDRESS_KEY, options.clientAddress);
  return new Promise<Res>((resolve, reject) =>
    invoke(metadata, { deadline: Date.now() + options.timeoutMs }, (error, response) =>
      error ? reject(fromServiceError(error, options.requestId)) : resolve(response as Res),
    ),
  );
}

export function requestMetadata(requestId: string, clientAddress?: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(REQUEST_ID_KEY, requestId);
  if (clientAddress) metadata.set(CLIENT_ADDRESS_KEY, clientAddress);
  return metadata;
}

type ClientConstructor<C> = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => C;

/** Records each call's latency as its caller sees it, with the status it ended with (deadlines included). */
const timingInterceptor: grpc.Interceptor = (options, nextCall) => {
  const labels = grpcMethodLabels(options.method_definition.path);
  const started = process.hrtime.bigint();
  return new grpc.InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      next(metadata, {
        onReceiveStatus(status, nextStatus) {
          grpcClientDuration.observe(
            { ...labels, grpc_code: grpc.status[status.code] ?? 'UNKNOWN' },
            secondsSince(started),
          );
          nextStatus(status);
        },
      });
    },
  });
};

/** One client (one channel, balanced over every replica the target names) per target for the life of the process. */
export function createClient<C>(Ctor: ClientConstructor<C>, address: string, maxMessageBytes: number): C {
  // grpc-js takes the interceptors off the options before making the channel, so it is still shared (see below).
  return new Ctor(address, grpc.credentials.createInsecure(), {
    ...clientChannelOptions(maxMessageBytes),
    // Every call carries this process's service proof (service-auth.ts).
    interceptors: [timingInterceptor, serviceProofInterceptor],
  });
}

interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: { status: string }) => void,
  ): void;
}

let HealthCtor: ClientConstructor<HealthClient> | undefined;

/**
 * A health client with the same channel options as the service's own client (`createClient`), so that both
 * share one connection (grpc-js pools subchannels by target and options): a health check that passes means the
 * calls can go through too.
 */
export function createHealthClient(address: string, maxMessageBytes: number): HealthClient {
  if (!HealthCtor) {
    const definition = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: ClientConstructor<HealthClient> } } };
    };
    HealthCtor = loaded.grpc.health.v1.Health;
  }
  return new HealthCtor(address, grpc.credentials.createInsecure(), clientChannelOptions(maxMessageBytes));
}

/** Resolves to true when the server answers SERVING within the timeout. */
export function checkHealth(client: HealthClient, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) =>
    client.Check({ service: '' }, { deadline: Date.now() + timeoutMs }, (error, response) =>
      resolve(!error && response?.status === 'SERVING'),
    ),
  );
}
