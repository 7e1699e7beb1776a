/**
 * The content types as the configuration service defines them, kept current in content's LiveTypeRegistry:
 * every call content serves first makes sure the registry holds config's current definitions (a no-op while
 * config's watch stream vouches for the cache), so a field added through `@types` is validated and served on
 * the very next request.
 *
 * While the stream is closed every call asks config, waiting up to a few seconds for a connection (a config that
 * just restarted is reached); after a failed read, without waiting, until a read succeeds. When config cannot be reached, the last definitions read stay in use (logged once
 * per outage), so content keeps serving while config is down; config makes every type change, so the only change
 * this can miss is one config acknowledged while this process's stream was closed, just before config became
 * unreachable. A content process started before config begins with the built-in types. Work no request waits
 * for (event consumers, sweeps) uses the last definitions read.
 */
import { ConfigTypes, requestIdOf, toServiceError, type Logger } from '@cms/shared';
import type { LiveTypeRegistry } from '../domain/types';

export interface TypeSource {
  /** Brings the registry up to date with config, or keeps the last definitions when config cannot be read. */
  refresh(requestId: string): Promise<void>;
  /** The config client, for schema edits (`@types`), over the channel whose stream announces them. */
  readonly config: ConfigTypes;
  close(): void;
}

export function configTypeSource(
  registry: LiveTypeRegistry,
  options: { address: string; timeoutMs: number; maxMessageBytes: number; log: Logger },
): TypeSource {
  const config = new ConfigTypes(options);
  let failing = false;
  return {
    config,
    async refresh(requestId) {
      try {
        // Once a read failed, the next ones do not wait for a connection: a request during an outage is served
        // with the last definitions at once, not after connectWaitMs; the first read after config is back is current.
        const read = await config.definitions(requestId, { waitForConnection: !failing });
        if (read.fetched) registry.replace(read.definitions);
        if (failing) options.log.info('content types read from config again');
        failing = false;
      } catch (error) {
        if (!failing)
          options.log.warn(
            { err: error, requestId },
            'content types not read from config; the last ones read stay in use',
          );
        failing = true;
      }
    },
    close: () => config.close(),
  };
}

type ServerCall = { metadata: Parameters<typeof requestIdOf>[0]; emit(event: 'error', error: unknown): boolean };

/**
 * The handlers of a gRPC service, each run once the registry is current; should that fail unexpectedly, a unary
 * call answers the error and a streaming one ends with it.
 */
export function withCurrentTypes<T extends object>(source: TypeSource, handlers: T, log: Logger): T {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (call: ServerCall, ...rest: unknown[]) => {
        const handle = handler as (...args: unknown[]) => unknown;
        const requestId = requestIdOf(call.metadata);
        source.refresh(requestId).then(
          () => handle(call, ...rest),
          (error: unknown) => {
            const status = toServiceError(error, log, requestId);
            const callback = rest[0];
            if (typeof callback === 'function') (callback as (e: unknown) => void)(status);
            else call.emit('error', status);
          },
        );
      },
    ]),
  ) as T;
}
