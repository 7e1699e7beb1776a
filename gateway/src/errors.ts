import { AppError } from '@cms/shared';
import type { Response } from 'express';

/** Writes the JSON error body of addendum §4; the only place errors become HTTP. */
export function sendError(res: Response, error: AppError, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = error.toBody();
  if (error.type === 'InternalServerError') body.request_id = requestId;
  res.status(error.httpStatus);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

/** Anything that is not an AppError is an internal error; its details stay in the log. */
export function asAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  return new AppError('InternalServerError', `Internal error; quote request id ${requestId} when reporting it`);
}
