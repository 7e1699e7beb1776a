/**
 * The gateway's end of the file hop (services/shared/src/http/file-hop.ts): `GET`/`HEAD` of `@@download` and
 * `@@images` go to the content service's internal HTTP server through http-proxy-middleware over a keep-alive
 * agent, so the bytes stream to the client (with `Range`, `ETag`, 304 answered by content) instead of travelling
 * whole inside gRPC messages; so do `@export`'s ZIP and the bodies of `@tus-upload` `PATCH` and `@import`, the
 * other way. The request is authenticated and parsed here as any other; what the gRPC hop would carry goes in one
 * header, signed with the suite's service key (the proof content checks first), and these replace whatever a
 * client sent under those names.
 */
import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  AppError,
  encodeFileHopRequest,
  FILE_HOP_HEADER,
  FILE_HOP_PATH,
  FILE_HOP_REQUEST_ID_HEADER,
  SERVICE_PROOF_KEY,
  signHttpProof,
  type FileHopRequest,
  type Logger,
  type Route,
} from '@cms/shared';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { sendError } from './errors';

/** Client headers the content service reads (validators and ranges); nothing else is passed on. */
const PASSED_HEADERS = ['range', 'if-range', 'if-none-match', 'if-modified-since', 'accept-language'] as const;
/**
 * What a resumable upload's requests (and `@import`'s) need besides: the protocol's headers, and the body's framing
 * and type.
 */
const UPLOAD_HEADERS = [
  'tus-resumable',
  'upload-offset',
  'lock-token',
  'content-type',
  'content-length',
  'transfer-encoding',
] as const;

/** The methods of a resumable upload that go over the hop (its bodiless `POST` goes over gRPC). */
const UPLOAD_METHODS = new Set(['OPTIONS', 'HEAD', 'PATCH']);

/** Whether a GET of this route streams a file over the hop (its declaration's `fileHop: 'download'`). */
export function downloadsOverHop(route: Route): boolean {
  return route.service === 'content' && route.fileHop === 'download';
}

/** Whether this method of this route is a resumable upload's that goes over the hop (`fileHop: 'upload'`). */
export function uploadsOverHop(route: Route, method: string): boolean {
  return route.service === 'content' && route.fileHop === 'upload' && UPLOAD_METHODS.has(method);
}

/** Whether the route is one of the site's ZIP (`fileHop: 'site-zip'`), which goes over the hop with every method. */
export function siteZipOverHop(route: Route): boolean {
  return route.service === 'content' && route.fileHop === 'site-zip';
}

export interface FileProxy {
  /**
   * Streams the answer to `res`; resolves when the response is done (or the client went away). `cacheControl`: the
   * caching rules' header for files, used where content sets none (a scale's own stays).
   */
  forward(req: Request, res: Response, route: Route, request: FileHopRequest, cacheControl?: string): Promise<void>;
  close(): void;
}

/** The proxy to the content service's file hop at `address` (`host:port`). */
export function fileProxy(address: string, timeoutMs: number, logger: Logger): FileProxy {
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 16 });
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: `http://${address}`,
    agent,
    // Answers are passed on as they are: errors are already the JSON of addendum §4.
    selfHandleResponse: false,
    proxyTimeout: timeoutMs,
    pathRewrite: () => FILE_HOP_PATH,
    on: {
      // Content sees the request at once, not with the body's first bytes: a caller refused there (an anonymous
      // `@import`, never told `100 Continue`) gets its answer without a body that would never come.
      proxyReq: (proxyReq) => proxyReq.flushHeaders(),
      proxyRes: (proxyRes, req, res) => {
        const cacheControl = (res as Response).locals?.fileCacheControl as string | undefined;
        if (cacheControl && proxyRes.statusCode !== undefined && proxyRes.statusCode < 400) {
          proxyRes.headers['cache-control'] ??= cacheControl;
        }
        // Answered before the client's body had all come (an upload refused at once): the body still on its way
        // would stall the connection's next request behind it, so this answer ends the connection.
        if (!req.complete) {
          proxyRes.headers.connection = 'close';
          res.once('finish', () => {
            if (!req.complete) req.destroy();
          });
        }
      },
      error: (error, req, res) => {
        const requestId = (res as Response).locals?.requestId as string;
        logger.warn({ err: error, requestId }, 'file hop to content failed');
        if ('setHeader' in res) {
          // As above: a body not all read stalls what follows on the connection.
          if (!req.complete && !res.headersSent) {
            res.setHeader('Connection', 'close');
            res.once('finish', () => {
              if (!req.complete) req.destroy();
            });
          }
          sendError(
            res as Response,
            new AppError('ServiceUnavailable', 'The content service is not reachable; try again'),
            requestId,
          );
        }
      },
    },
  });

  return {
    forward(req, res, route, request, cacheControl) {
      res.locals.fileCacheControl = cacheControl;
      // Only what content needs: the forwarded request and the validators (or an upload's headers, with its body
      // streaming on). No credentials cross the hop.
      const claim = encodeFileHopRequest(request);
      const headers: Record<string, string> = {
        [FILE_HOP_HEADER]: claim,
        [FILE_HOP_REQUEST_ID_HEADER]: request.request_id,
        // The proxy sends every request to FILE_HOP_PATH (pathRewrite), which the proof names.
        [SERVICE_PROOF_KEY]: signHttpProof({
          method: req.method,
          path: FILE_HOP_PATH,
          requestId: request.request_id,
          claim,
        }),
      };
      const upload = route.fileHop === 'upload' || route.fileHop === 'site-zip';
      for (const name of upload ? UPLOAD_HEADERS : PASSED_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      req.headers = headers;
      return new Promise<void>((resolve) => {
        res.on('close', () => resolve());
        void proxy(req, res, () => resolve());
      });
    },
    close: () => agent.destroy(),
  };
}
