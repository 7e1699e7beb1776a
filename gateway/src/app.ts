import { randomUUID } from 'node:crypto';
import { AppError, badRequest, type HttpMethod, type Logger, type QueryParam } from '@cms/shared';
import express, { type NextFunction, type Request, type Response } from 'express';
import { authenticate } from './auth';
import type { AuthCache } from './auth-cache';
import type { Backends } from './backends';
import type { GatewayConfig } from './config';
import { asAppError, sendError } from './errors';
import { parsePath } from './path';
import { routeFor } from './routes';

/** Request headers passed on to services (lower-case). */
const FORWARDED_HEADERS = ['lock-token', 'prefer', 'accept-language'] as const;
const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
const EMPTY = Buffer.alloc(0);

export interface GatewayState {
  /** False while shutting down, so /readyz steers traffic away. */
  serving: boolean;
}

export function createGatewayApp(
  config: GatewayConfig & { publicUrl: string },
  backends: Backends,
  logger: Logger,
  state: GatewayState,
  authCache?: AuthCache,
): express.Express {
  const publicUrl = new URL(config.publicUrl);
  const basePath = publicUrl.pathname.replace(/\/+$/, '');
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);

  app.use((req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (logger.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          { requestId, method: req.method, path: req.url, status: res.statusCode, ms: Math.round(ms * 100) / 100 },
          'request',
        );
      });
    }
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    const services = await backends.health(config.READY_TIMEOUT_MS);
    const ready = state.serving && Object.values(services).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', serving: state.serving, services });
  });

  app.use(express.raw({ type: () => true, limit: config.MAX_BODY_BYTES }));

  app.use(async (req: Request, res: Response) => {
    const requestId = res.locals.requestId as string;
    try {
      const queryStart = req.url.indexOf('?');
      const rawPath = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
      const parsed = parsePath(rawPath, basePath);
      const route = routeFor(parsed.endpoint);
      if (!route) throw new AppError('NotFound', `No such endpoint: @${parsed.endpoint}`);
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as HttpMethod;
      if (!route.methods.includes(method)) {
        throw new AppError(
          'MethodNotAllowed',
          `Method ${req.method} is not allowed on @${parsed.endpoint || 'context'}`,
          undefined,
          undefined,
          {
            Allow: route.methods.join(', '),
          },
        );
      }
      const body = Buffer.isBuffer(req.body) ? req.body : EMPTY;
      if (body.length > 0) checkJson(body);
      const authorization = req.headers.authorization;
      const principal =
        route.auth === 'ignore' ? null : await authenticate(authorization, backends, requestId, authCache);
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (authorization && route.auth === 'forward') headers.authorization = authorization;
      const response = await backends.handle(
        route.service,
        {
          method,
          context_path: parsed.context,
          endpoint: parsed.endpoint,
          sub_path: parsed.subPath,
          query: queryStart === -1 ? [] : parseQuery(req.url.slice(queryStart + 1)),
          body,
          principal,
          public_url: config.publicUrl,
          request_id: requestId,
          headers,
        },
        requestId,
      );
      res.status(response.status);
      for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
      if (response.body.length > 0) {
        if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
        res.end(response.body);
      } else {
        res.end();
      }
    } catch (error) {
      const appError = asAppError(error, requestId);
      if (appError.type === 'InternalServerError') logger.error({ err: error, requestId }, 'request failed');
      sendError(res, appError, requestId);
    }
  });

  // Body-parser failures: too large, aborted, bad encoding.
  app.use((error: Error & { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    if (error.type === 'entity.too.large') {
      sendError(
        res,
        new AppError('PayloadTooLarge', `Request body larger than ${config.MAX_BODY_BYTES} bytes`),
        requestId,
      );
    } else if (error.status && error.status < 500) {
      sendError(res, badRequest(error.message), requestId);
    } else {
      logger.error({ err: error, requestId }, 'request failed');
      sendError(res, asAppError(error, requestId), requestId);
    }
  });

  return app;
}

function checkJson(body: Buffer): void {
  try {
    JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${(error as Error).message}`);
  }
}

/** Query pairs in order with repeated keys kept; `+` is a space, as in forms. */
export function parseQuery(search: string): QueryParam[] {
  const pairs: QueryParam[] = [];
  for (const [key, value] of new URLSearchParams(search)) pairs.push({ key, value });
  return pairs;
}
