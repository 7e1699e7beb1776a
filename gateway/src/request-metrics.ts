import {
  httpRequestDuration,
  httpRequests,
  methodLabel,
  secondsSince,
  setActiveSpanAttribute,
  statusLabel,
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

/** Counts and times every response by endpoint, method and status. */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const labels = {
      endpoint: typeof res.locals.endpoint === 'string' ? res.locals.endpoint : 'none',
      method: methodLabel(req.method),
      status: statusLabel(res.statusCode),
    };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, secondsSince(started));
  });
  next();
}
