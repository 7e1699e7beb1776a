import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, badRequest, type Logger } from '@cms/shared';
import type { Response } from 'express';

/** How long a refused connection may still read our answer before it is closed (it may still be sending). */
const CLIENT_ERROR_GRACE_MS = 1000;

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

/** The responses each connection still owes, so that an answer to a parser error comes after them. */
const owed = new WeakMap<Duplex, Set<ServerResponse>>();
/** Connections whose parser error is answered (the parser may report again as more bytes arrive). */
const answered = new WeakSet<Duplex>();

/** Counts a request among those its connection owes an answer to, until its response is written or dropped. */
export function trackResponse(req: IncomingMessage, res: ServerResponse): void {
  let responses = owed.get(req.socket);
  if (!responses) owed.set(req.socket, (responses = new Set()));
  const pending = responses;
  pending.add(res);
  res.once('close', () => pending.delete(res));
}

/**
 * What Node's HTTP parser refused (a malformed request line or header, headers past the limit, a request too
 * slow to arrive), answered with the JSON body of addendum §4 instead of Node's bare status line, then the
 * connection is closed. The message names the parser's error code only, never the bytes it refused.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  if (socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  logger.debug({ code: error.code }, 'malformed HTTP request refused');
  const pending = [...(owed.get(socket) ?? [])];
  // A request whose body held the bad bytes: the error is its answer, unless it has begun another one.
  const refused = pending.find((res) => !res.req.complete);
  if (error.code === 'ECONNRESET' || !socket.writable || refused?.headersSent) {
    socket.destroy();
    return;
  }
  const response = rawResponse(clientErrorOf(error.code));
  // Pipelined requests parsed before the bad one are answered first, so that the error is not taken as theirs.
  const before = pending.filter((res) => res !== refused && !res.writableFinished);
  const answer = () => {
    if (!socket.writable) return;
    socket.end(response);
    const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_GRACE_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
  if (before.length === 0) answer();
  else void Promise.all(before.map(written)).then(answer);
}

function rawResponse(error: AppError): string {
  const body = JSON.stringify(error.toBody());
  return (
    `HTTP/1.1 ${error.httpStatus} ${STATUS_CODES[error.httpStatus]}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Settles once the response is on the socket, or will never be. */
function written(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
}

function clientErrorOf(code: string | undefined): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('RequestHeaderFieldsTooLarge', 'Request headers larger than the server accepts');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('PayloadTooLarge', 'Chunk extensions larger than the server accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('RequestTimeout', 'The request did not arrive in time');
    default: {
      const known = code && /^HPE_[A-Z_]{1,40}$/.test(code) ? ` (${code})` : '';
      return badRequest(`Malformed HTTP request${known}`);
    }
  }
}
