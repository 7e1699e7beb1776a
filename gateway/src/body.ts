import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { AppError, badRequest } from '@cms/shared';

const EMPTY = Buffer.alloc(0);
const DECODERS = {
  gzip: promisify<Buffer, ZlibOptions, Buffer>(gunzip),
  deflate: promisify<Buffer, ZlibOptions, Buffer>(inflate),
  br: promisify<Buffer, ZlibOptions, Buffer>(brotliDecompress),
};
/** How long a client refused for lack of room is asked to wait (seconds). */
const RETRY_AFTER_SECONDS = 1;

/**
 * The request body bytes this process holds at once. Every body is counted from its first byte until its
 * response is done (the gRPC call holds it until then); a body larger than `smallBytes` is admitted only
 * while it fits under the capacity, so large uploads cannot exhaust memory, and small ones always pass.
 */
export class BodyBudget {
  private held = 0;

  constructor(
    readonly capacity: number,
    readonly smallBytes: number,
  ) {}

  get inFlight(): number {
    return this.held;
  }

  /** Counts `more` bytes of a body of `total` bytes so far; false (nothing counted) when a large body does not fit. */
  take(more: number, total: number): boolean {
    if (total > this.smallBytes && this.held + more > this.capacity) return false;
    this.held += more;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/** What one caller may send: the largest body, and the error for a larger one (413, or 401 asking to log in). */
export interface BodyLimit {
  bytes: number;
  tooLarge(): AppError;
}

/** Requests that sent `Expect: 100-continue` and have not been told to go on. */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Marks a request whose client waits for `100 Continue` before it sends its body (server `checkContinue`). */
export function expectsContinue(req: IncomingMessage): void {
  awaitingContinue.add(req);
}

/** Tells a client waiting for `100 Continue` to send its body, when its body is passed on rather than read here. */
export function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
}

/** True when the request carries a body (a positive Content-Length, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Reads the body once, after the caller is known: a declared length over the limit or over the budget is
 * refused before a byte is read (a client waiting for `100 Continue` is never told to send it), a chunked body
 * is refused as soon as it passes either, and the bytes counted are given back when the response is done.
 */
export async function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: BodyLimit,
  budget: BodyBudget,
): Promise<Buffer> {
  if (!hasBody(req)) return EMPTY;
  const coding = contentCoding(req.headers['content-encoding']);
  let counted = 0;
  res.once('close', () => budget.give(counted));
  const count = (total: number) => {
    if (total <= counted) return;
    if (!budget.take(total - counted, total)) throw busy();
    counted = total;
  };

  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined) {
    if (declared > limit.bytes) throw limit.tooLarge();
    count(declared);
  }
  if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
  const raw = await collect(req, (total) => {
    if (total > limit.bytes) throw limit.tooLarge();
    count(total);
  });
  if (coding === 'identity') return raw;
  const body = await decode(raw, coding, limit);
  count(body.length);
  return body;
}

/** The body's chunks; `check` sees the running total and refuses by throwing, after which the rest is discarded. */
function collect(req: IncomingMessage, check: (total: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Gone while the caller was being authenticated: its `close` has been and will not come again.
    if (req.destroyed) {
      reject(badRequest('The request body did not arrive whole'));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      try {
        check(total);
      } catch (error) {
        done();
        chunks.length = 0;
        // The rest is read and dropped, so the connection stays in step for its next request.
        req.resume();
        reject(error);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, total));
    };
    const onClose = () => {
      done();
      reject(badRequest('The request body did not arrive whole'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onClose);
  });
}

type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

function contentCoding(header: string | undefined): Coding {
  const coding = (header ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return 'identity';
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  throw badRequest('Unsupported Content-Encoding; send identity, gzip, deflate or br');
}

/** A compressed body, inflated to at most the caller's limit. */
async function decode(raw: Buffer, coding: Exclude<Coding, 'identity'>, limit: BodyLimit): Promise<Buffer> {
  try {
    return await DECODERS[coding](raw, { maxOutputLength: Math.max(1, limit.bytes) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw limit.tooLarge();
    throw badRequest(`Malformed ${coding} body`);
  }
}

function busy(): AppError {
  return new AppError(
    'ServiceUnavailable',
    'Too many large request bodies in flight; retry shortly',
    undefined,
    undefined,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}
