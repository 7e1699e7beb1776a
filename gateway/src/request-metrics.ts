import {
  httpRequestDuration,
  httpRequests,
  methodLabel,
  secondsSince,
  setActiveSpanAttribute,
  statusLabel,
  type Logger,
} from '@cms/shared';
import type { NextFunction, Request, Response } from 'express';

/**
 * The `endpoint` label of a request: what the gateway routed it to (an `@` name from the routing table,
 * `context` for the object itself, or one of the gateway's own paths), set on `res.locals.endpoint` once known;
 * `none` when no route was found. Never the path. The request's trace span gets it too (`cms.endpoint`).
 */
export function setEndpointLabel(res: Response, label: string): void {
  res.locals.endpoint = label;
  setActiveSpanAttribute('cms.endpoint', label);
}

/** Counts and times one answered request (`started`: process.hrtime.bigint() when it came in). */
export function countRequest(endpoint: string, method: string, status: number, started: bigint): void {
  const labels = { endpoint, method: methodLabel(method), status: statusLabel(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, secondsSince(started));
}

/** The access log line of one answered request (at info). */
export function logRequest(
  logger: Logger,
  request: { requestId: string; method: string | undefined; path: string | undefined; status: number },
  started: bigint,
): void {
  if (!logger.isLevelEnabled('info')) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  logger.info({ ...request, ms: Math.round(ms * 100) / 100 }, 'request');
}

/** Counts and times every response by endpoint, method and status. */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    countRequest(
      typeof res.locals.endpoint === 'string' ? res.locals.endpoint : 'none',
      req.method,
      res.statusCode,
      started,
    );
  });
  next();
}
