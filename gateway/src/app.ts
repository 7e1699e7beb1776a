import {
  AppError,
  BASIC_CHALLENGE,
  badRequest,
  collectProcessMetrics,
  metricsText,
  unauthorized,
  type HttpMethod,
  type Logger,
  type Principal__Output,
  type QueryParam,
  type Route,
} from '@cms/shared';
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { authenticate } from './auth';
import type { AuthCache } from './auth-cache';
import type { Backends } from './backends';
import { clientAddressOf } from './client-address';
import { BodyBudget, readBody, sendContinue, type BodyLimit, type BodyReading } from './body';
import { bodyBytesInFlight, bodyBytesInFlightPerCaller, jsonShapeLimits, type GatewayConfig } from './config';
import { asAppError, sendError } from './errors';
import { downloadsOverHop, fileProxy, siteZipOverHop, uploadsOverHop } from './file-proxy';
import { etagsFor, sendResponse, type HttpCaching } from './http-caching';
import { ifMatchHolds } from './conditional';
import { openApiDocument } from './openapi';
import { parsePath } from './path';
import { publicUrlFor } from './public-origin';
import { requestIdFor } from './request-id';
import { logRequest, requestMetrics, setEndpointLabel } from './request-metrics';
import { routeFor } from './routes';

/**
 * Request headers passed on to services (lower-case): `accept` chooses an export's format (CSV), `content-type`
 * tells a file upload (`multipart/form-data`) from a JSON body.
 */
const FORWARDED_HEADERS = [
  'lock-token',
  'prefer',
  'accept-language',
  'accept',
  'content-type',
  // A resumable upload's announcement (`@tus-upload`, `@tus-replace`).
  'tus-resumable',
  'upload-length',
  'upload-metadata',
] as const;

/**
 * The headers of resumable uploads, allowed and exposed whatever the CORS lists configured say: a browser's TUS client
 * cannot work without them (the original's documentation asks its operators to add them by hand).
 */
const TUS_REQUEST_HEADERS = ['Tus-Resumable', 'Upload-Length', 'Upload-Metadata', 'Upload-Offset'];
const TUS_RESPONSE_HEADERS = [
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Expires',
  'Location',
];

/** A comma-separated header list with `more` added (those it lacks, compared without case). */
function withHeaders(list: string, more: readonly string[]): string {
  // A wildcard already allows them.
  if (list.trim() === '*') return list;
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = new Set(names.map((name) => name.toLowerCase()));
  return [...names, ...more.filter((name) => !known.has(name.toLowerCase()))].join(', ');
}

/**
 * A resumable upload's `OPTIONS` that is not a CORS preflight: the TUS client asks what the server supports, which
 * content answers (over the file hop); the CORS middleware, which would end every `OPTIONS` itself, lets it through.
 */
const TUS_PATH = /\/@tus-(?:upload|replace)(?:\/[^/]*)?$/;
const isTusOptions = (req: Request) =>
  req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined && TUS_PATH.test(req.path);

/**
 * How many anonymous bodies of the largest size one client address may have in flight at once (a login body is
 * a hundred bytes: thousands of logins); past it, 503 with Retry-After for that address only.
 */
const ANONYMOUS_BODIES_PER_ADDRESS = 16;

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
  caching?: HttpCaching,
): express.Express {
  const publicUrl = new URL(config.publicUrl);
  const basePath = publicUrl.pathname.replace(/\/+$/, '');
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);

  app.use((req, res, next) => {
    const requestId = requestIdFor(req);
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (logger.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.on('finish', () =>
        logRequest(logger, { requestId, method: req.method, path: req.url, status: res.statusCode }, started),
      );
    }
    next();
  });
  collectProcessMetrics();
  app.use(requestMetrics);

  // Browsers on the allowed origins (Volto in its direct mode) may call the API; preflights end here.
  if (config.CORS_ALLOW_ORIGINS.length > 0) {
    const options = {
      origin: config.CORS_ALLOW_ORIGINS,
      methods: config.CORS_ALLOW_METHODS,
      allowedHeaders: withHeaders(config.CORS_ALLOW_HEADERS, TUS_REQUEST_HEADERS),
      exposedHeaders: withHeaders(config.CORS_EXPOSE_HEADERS, TUS_RESPONSE_HEADERS),
      credentials: config.CORS_ALLOW_CREDENTIALS,
      maxAge: config.CORS_MAX_AGE,
    };
    const answerCors = cors(options);
    // A TUS client's own OPTIONS gets the CORS headers and goes on to its answer.
    const passCors = cors({ ...options, preflightContinue: true });
    app.use((req, res, next) => (isTusOptions(req) ? passCors : answerCors)(req, res, next));
  }

  app.get('/healthz', (_req, res) => {
    setEndpointLabel(res, 'healthz');
    res.json({ status: 'ok' });
  });

  app.get('/readyz', async (_req, res) => {
    setEndpointLabel(res, 'readyz');
    const services = await backends.health(config.READY_TIMEOUT_MS);
    const ready = state.serving && Object.values(services).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', serving: state.serving, services });
  });

  // Prometheus text of this process (in the embedded mode: of every service in it too).
  app.get('/metrics', async (_req, res) => {
    setEndpointLabel(res, 'metrics');
    const { contentType, body } = await metricsText();
    res.setHeader('Content-Type', contentType);
    res.end(body);
  });

  // Before the `@` routing, which would take `@openapi` for an endpoint on the site root.
  const openApiPaths = [...new Set(['', basePath].flatMap((base) => [`${base}/@openapi`, `${base}/openapi.json`]))];
  app.get(openApiPaths, (req, res) => {
    setEndpointLabel(res, 'openapi');
    res.json(openApiDocument(publicUrlFor(req, config)));
  });

  const anonymousBodyBytes = Math.min(config.MAX_ANONYMOUS_BODY_BYTES, config.MAX_BODY_BYTES);
  const budget = new BodyBudget(bodyBytesInFlight(config), anonymousBodyBytes);
  const principalShare = bodyBytesInFlightPerCaller(config);
  // Anonymous callers send small bodies only (`@login`): an address holds at most a few of the largest at once.
  const addressShare = Math.min(principalShare, ANONYMOUS_BODIES_PER_ADDRESS * anonymousBodyBytes);
  const bodyLimits = bodyLimitsOf(config.MAX_BODY_BYTES, anonymousBodyBytes);
  const shape = jsonShapeLimits(config);
  /** How this caller's body is read: its limit, and its share of the budget (anonymous callers by address). */
  const bodyReading = (
    principal: Principal__Output | null,
    route: Route,
    method: HttpMethod,
    clientAddress: string,
  ): BodyReading => ({
    limit: bodyLimits(principal, route, method),
    budget,
    caller: principal ? `principal:${principal.id}` : `address:${clientAddress}`,
    share: principal ? principalShare : addressShare,
    shape,
  });
  const files = fileProxy(config.CONTENT_FILES_ADDRESS, config.CALL_TIMEOUT_MS, logger);

  app.use(async (req: Request, res: Response) => {
    const requestId = res.locals.requestId as string;
    try {
      const queryStart = req.url.indexOf('?');
      const rawPath = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
      const parsed = parsePath(rawPath, basePath, req.method);
      const route = routeFor(parsed.endpoint);
      if (!route) throw new AppError('NotFound', `No such endpoint: @${parsed.endpoint}`);
      setEndpointLabel(res, parsed.endpoint ? `@${parsed.endpoint}` : 'context');
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as HttpMethod;
      // A resumable upload's `OPTIONS`, `HEAD` and `PATCH` go to content over the file hop, the body streaming on
      // (never read whole here); its declared length is held to the caller's limit first.
      if (uploadsOverHop(route, req.method)) {
        const principal = await authenticate(
          req.headers.authorization,
          backends,
          requestId,
          authCache,
          clientAddressOf(req, config.TRUST_PROXY),
        );
        const limit = bodyLimits(principal, route, 'PATCH');
        if (Number(req.headers['content-length'] ?? 0) > limit.bytes) throw limit.tooLarge();
        sendContinue(req, res);
        const request = { context_path: parsed.context, endpoint: parsed.endpoint, sub_path: parsed.subPath };
        const forwarded = { ...request, principal, public_url: publicUrlFor(req, config), request_id: requestId };
        await files.forward(req, res, route, forwarded);
        return;
      }
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
      // The caller is known before a byte of the body is read; the service parses the body, once.
      const authorization = req.headers.authorization;
      const clientAddress = clientAddressOf(req, config.TRUST_PROXY);
      const principal =
        route.auth === 'ignore'
          ? null
          : await authenticate(authorization, backends, requestId, authCache, clientAddress);
      // The site's ZIP streams over the file hop both ways (`@export`'s answer, `@import`'s body), never read whole
      // here: content holds the body to its own limit (IMPORT_MAX_ZIP_BYTES) and checks the permission; an
      // anonymous caller's declared body is held to the anonymous limit first, as any other.
      if (siteZipOverHop(route)) {
        const limit = bodyLimits(principal, route, method);
        if (!principal && Number(req.headers['content-length'] ?? 0) > limit.bytes) throw limit.tooLarge();
        // The body is not inflated on its way (a ZIP is compressed already): one sent encoded is refused.
        const encoding = req.headers['content-encoding'];
        if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
          throw new AppError('UnsupportedMediaType', `@${parsed.endpoint} takes its body without Content-Encoding`);
        if (principal) sendContinue(req, res);
        const request = { context_path: parsed.context, endpoint: parsed.endpoint, sub_path: parsed.subPath };
        const forwarded = { ...request, principal, public_url: publicUrlFor(req, config), request_id: requestId };
        await files.forward(req, res, route, forwarded);
        return;
      }
      // File bytes stream from content over the HTTP hop (file-proxy.ts), not inside a gRPC answer. A body sent
      // with the GET means nothing there: it is read within the limits (answering `Expect: 100-continue`) and
      // dropped, so the hop carries none.
      if (method === 'GET' && downloadsOverHop(route)) {
        await readBody(req, res, bodyReading(principal, route, method, clientAddress));
        const cacheControl = await caching?.fileCacheControl(requestId, route.cache, principal === null);
        const request = { context_path: parsed.context, endpoint: parsed.endpoint, sub_path: parsed.subPath };
        const forwarded = { ...request, principal, public_url: publicUrlFor(req, config), request_id: requestId };
        await files.forward(req, res, route, forwarded, cacheControl);
        return;
      }
      const body = await readBody(req, res, bodyReading(principal, route, method, clientAddress));
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (authorization && route.auth === 'forward') headers.authorization = authorization;
      const publicUrl = publicUrlFor(req, config);
      const fetch = () =>
        backends.handle(
          route.service,
          {
            method,
            context_path: parsed.context,
            endpoint: parsed.endpoint,
            sub_path: parsed.subPath,
            query: queryStart === -1 ? [] : parseQuery(req.url.slice(queryStart + 1)),
            body,
            principal,
            public_url: publicUrl,
            request_id: requestId,
            headers,
          },
          requestId,
          clientAddress,
        );
      if (method === 'GET' && caching && route.auth !== 'ignore') {
        const request = { route, endpoint: parsed.endpoint, context: parsed.context, principal, publicUrl, requestId };
        await caching.answer(req, res, { ...request, cors: config.CORS_ALLOW_ORIGINS.length > 0 }, fetch);
      } else {
        const ifMatch = req.headers['if-match'];
        // `If-Match` on a write to an object: its current representation (as this caller reads it) must be the
        // one the client names, else 412 and nothing is written (addendum §8).
        if (ifMatch !== undefined && method !== 'GET' && route.service === 'content' && parsed.endpoint === '') {
          const current = await backends.handle(
            route.service,
            {
              method: 'GET',
              context_path: parsed.context,
              endpoint: '',
              sub_path: [],
              query: [],
              body: Buffer.alloc(0),
              principal,
              public_url: publicUrl,
              request_id: requestId,
              // Read as the client read it: without what only the write sends.
              headers: Object.fromEntries(
                Object.entries(headers).filter(([name]) => name !== 'prefer' && name !== 'lock-token'),
              ),
            },
            requestId,
            clientAddress,
          );
          const tags = current.status === 200 ? etagsFor(req, principal, current.body) : [];
          if (!ifMatchHolds(ifMatch, tags)) {
            throw new AppError('PreconditionFailed', 'The object has changed since it was read (If-Match)');
          }
        }
        sendResponse(res, await fetch());
      }
    } catch (error) {
      const appError = asAppError(error, requestId);
      if (appError.type === 'InternalServerError') logger.error({ err: error, requestId }, 'request failed');
      sendError(res, appError, requestId);
    }
  });

  // Whatever Express itself raises before the handler: a client error is 400, the rest is logged.
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const requestId = res.locals.requestId as string;
    if (error.status && error.status < 500) {
      sendError(res, badRequest(error.message), requestId);
    } else {
      logger.error({ err: error, requestId }, 'request failed');
      sendError(res, asAppError(error, requestId), requestId);
    }
  });

  return app;
}

/**
 * How much body each caller may send: an authenticated caller up to MAX_BODY_BYTES; an anonymous one only a
 * small body (anonymous writes are rare: `@login`). Above that, 401 asking for a login where the request is a
 * write an anonymous caller could never make (every write but `@login` needs a permission Anonymous lacks),
 * else 413.
 */
function bodyLimitsOf(
  maxBytes: number,
  anonymousBytes: number,
): (principal: Principal__Output | null, route: Route, method: HttpMethod) => BodyLimit {
  const authenticated: BodyLimit = {
    bytes: maxBytes,
    tooLarge: () => new AppError('PayloadTooLarge', `Request body larger than ${maxBytes} bytes`),
  };
  const anonymousWrite: BodyLimit = {
    bytes: anonymousBytes,
    tooLarge: () => unauthorized(`Log in to send a request body larger than ${anonymousBytes} bytes`, BASIC_CHALLENGE),
  };
  const anonymous: BodyLimit = {
    bytes: anonymousBytes,
    tooLarge: () =>
      new AppError('PayloadTooLarge', `Request body larger than ${anonymousBytes} bytes (the anonymous limit)`),
  };
  return (principal, route, method) => {
    if (principal) return authenticated;
    return route.auth !== 'ignore' && method !== 'GET' ? anonymousWrite : anonymous;
  };
}

/** Query pairs in order with repeated keys kept; `+` is a space, as in forms. */
export function parseQuery(search: string): QueryParam[] {
  const pairs: QueryParam[] = [];
  for (const [key, value] of new URLSearchParams(search)) pairs.push({ key, value });
  return pairs;
}
