import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@cms/shared';
import type { GatewayConfig } from './config';
import { gatewayCached, wantsFresh, type HttpCaching } from './http-caching';
import { parsePath } from './path';
import { publicUrlFor } from './public-origin';
import { requestIdFor } from './request-id';
import { countRequest, logRequest } from './request-metrics';
import { routeFor } from './routes';

/**
 * Cache hits answered before Express. An anonymous GET whose answer the gateway's cache holds is sent from the
 * server's own request handler with what the app would send (request id, caching headers, metrics, access log):
 * Express's routing and its decoration of each request and response cost more than the rest of a hit. Anything
 * else (a caller with credentials, a CORS request, a path that is not a cached endpoint, a miss) returns false
 * with nothing sent, for the app to answer as usual.
 */
export function cacheFront(
  config: Pick<GatewayConfig, 'PUBLIC_HOSTS' | 'TRUST_PROXY' | 'CORS_ALLOW_ORIGINS'> & { publicUrl: string },
  caching: HttpCaching,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const basePath = new URL(config.publicUrl).pathname.replace(/\/+$/, '');
  const cors = config.CORS_ALLOW_ORIGINS.length > 0;
  return async (req, res) => {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || req.headers.authorization !== undefined) return false;
    // The CORS middleware answers those (its headers vary by origin).
    if ((cors && req.headers.origin !== undefined) || wantsFresh(req)) return false;
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    let parsed: ReturnType<typeof parsePath>;
    try {
      parsed = parsePath(queryStart === -1 ? url : url.slice(0, queryStart), basePath, method);
    } catch {
      // The app answers a malformed path with its error.
      return false;
    }
    const route = routeFor(parsed.endpoint);
    if (!route || route.auth === 'ignore' || !gatewayCached(route)) {
      return false;
    }
    const started = process.hrtime.bigint();
    const requestId = requestIdFor(req);
    const request = {
      route,
      endpoint: parsed.endpoint,
      context: parsed.context,
      principal: null,
      publicUrl: publicUrlFor(req, config),
      requestId,
      cors,
    };
    res.setHeader('X-Request-Id', requestId);
    if (!(await caching.tryHit(req, res, request))) {
      res.removeHeader('X-Request-Id');
      return false;
    }
    countRequest(parsed.endpoint ? `@${parsed.endpoint}` : 'context', method, res.statusCode, started);
    logRequest(logger, { requestId, method, path: url, status: res.statusCode }, started);
    return true;
  };
}
