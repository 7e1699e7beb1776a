import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegistrySettings, type Logger } from '@cms/shared';
import { createGatewayApp, type GatewayState } from './app';
import { AuthCache } from './auth-cache';
import { cacheFront } from './cache-front';
import { connectBackends, type BackendAddresses } from './backends';
import { expectsContinue } from './body';
import type { GatewayConfig } from './config';
import { answerClientError, trackResponse } from './errors';
import { registryCacheRules } from './cache-rules';
import { ReplicaSubscriptions } from './replica-subscriptions';
import { ResponseCache } from './http-cache';
import { HttpCaching } from './http-caching';
import { watchInvalidations } from './invalidations';

export interface RunningGateway {
  port: number;
  /** PUBLIC_URL, or `http://localhost:<port>` when none is configured. */
  publicUrl: string;
  /** Stops accepting, lets in-flight requests finish until the deadline, then closes the rest. */
  stop(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  addresses: BackendAddresses,
  logger: Logger,
): Promise<RunningGateway> {
  const backends = connectBackends(addresses, config);
  const state: GatewayState = { serving: true };
  const authCache = new AuthCache(config.AUTH_CACHE_TTL_MS);
  const watcher =
    config.AUTH_CACHE_TTL_MS > 0
      ? watchInvalidations(() => backends.watchInvalidations(`gateway-${process.pid}`), authCache, logger)
      : undefined;
  // Made on first use: the embedded suite starts the gateway before the config service may answer.
  let registry: RegistrySettings | undefined;
  const registrySettings = () =>
    (registry ??= new RegistrySettings({
      address: addresses.config,
      timeoutMs: config.CALL_TIMEOUT_MS,
      maxMessageBytes: config.MAX_MESSAGE_BYTES,
      log: logger,
    }));
  const responseCache = config.GATEWAY_CACHE_BYTES > 0 ? new ResponseCache(config.GATEWAY_CACHE_BYTES) : undefined;
  const changes =
    responseCache &&
    new ReplicaSubscriptions(
      responseCache,
      (replicaAddress) => backends.watchChanges(`gateway-cache-${process.pid}`, replicaAddress),
      logger,
    );
  changes?.start();
  const caching = new HttpCaching(registryCacheRules(registrySettings), responseCache, changes);
  const server: Server = createServer({ keepAlive: true });
  // Longer than a load balancer's idle timeout, so the balancer closes first.
  server.keepAliveTimeout = 65_000;
  // Node's own answer to a request its parser refuses is a bare status line; ours is the JSON error body.
  server.on('request', trackResponse);
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Known only now when PORT is 0; no request is taken before the app is attached.
  const publicUrl = publicUrlOf(config, port);
  const app = createGatewayApp({ ...config, publicUrl }, backends, logger, state, authCache, caching);
  const front = responseCache && cacheFront({ ...config, publicUrl }, caching, logger);
  server.on(
    'request',
    front
      ? (req: IncomingMessage, res: ServerResponse) => {
          front(req, res).then(
            (answered) => answered || app(req, res),
            (error: unknown) => {
              // Nothing was sent: the app answers as if the front were not there.
              logger.warn({ err: error }, 'gateway cache front failed');
              if (!res.headersSent) app(req, res);
            },
          );
        }
      : app,
  );
  // A client that asks before sending its body is told to go on only once the gateway will read it.
  server.on('checkContinue', (req, res) => {
    trackResponse(req, res);
    expectsContinue(req);
    app(req, res);
  });
  // Node answers any other expectation with a bare 417; it is ignored instead (RFC 9110 §10.1.1 allows either).
  server.on('checkExpectation', (req, res) => {
    trackResponse(req, res);
    app(req, res);
  });
  logger.info({ port, publicUrl }, 'gateway listening');

  return {
    port,
    publicUrl,
    async stop() {
      state.serving = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await closed;
      clearTimeout(timer);
      watcher?.stop();
      changes?.stop();
      registry?.close();
      backends.close();
    },
  };
}

export function publicUrlOf(config: Pick<GatewayConfig, 'PUBLIC_URL'>, port: number): string {
  return (config.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
}
