import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError, badRequest, requestBodiesRefused, requestBodyBytesHeld } from '@cms/shared';
import { JsonShapeGuard, type JsonShapeLimits } from './json-shape';

const EMPTY = Buffer.alloc(0);
/** How long a client refused for lack of room is asked to wait (seconds). */
const RETRY_AFTER_SECONDS = 1;

/**
 * The request body bytes this process holds at once, in all and per caller. Every body is counted as its bytes
 * arrive (inflated bytes, for a compressed one), never by what its Content-Length declares, until its response
 * is done (the gRPC call holds it until then). A body goes on only while its caller holds no more than its
 * share, so a slow or greedy caller (or one address with many connections) holds at most that and the rest
 * stays for others; once a body is larger than `smallBytes` it must also fit under the capacity, which small
 * bodies are not held back by (a login is not refused because uploads fill the budget).
 */
export class BodyBudget {
  private held = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(
    readonly capacity: number,
    readonly smallBytes: number,
  ) {}

  get inFlight(): number {
    return this.held;
  }

  /** What `caller` holds now. */
  heldBy(caller: string): number {
    return this.byCaller.get(caller) ?? 0;
  }

  /** Whether `bytes` more for a body of `total` bytes would fit now in `share` for `caller` (nothing is counted). */
  fits(caller: string, share: number, bytes: number, total: number): boolean {
    if (this.heldBy(caller) + bytes > share) return false;
    return total <= this.smallBytes || this.held + bytes <= this.capacity;
  }

  /** Counts `more` bytes of `caller`'s body of `total` bytes so far; false (nothing counted) when they do not fit. */
  take(caller: string, share: number, more: number, total: number): boolean {
    if (!this.fits(caller, share, more, total)) return false;
    this.held += more;
    this.byCaller.set(caller, this.heldBy(caller) + more);
    requestBodyBytesHeld.set(this.held);
    return true;
  }

  give(caller: string, bytes: number): void {
    if (bytes === 0) return;
    this.held -= bytes;
    const left = this.heldBy(caller) - bytes;
    if (left > 0) this.byCaller.set(caller, left);
    else this.byCaller.delete(caller);
    requestBodyBytesHeld.set(this.held);
  }
}

/** What one caller may send: the largest body, and the error for a larger one (413, or 401 asking to log in). */
export interface BodyLimit {
  bytes: number;
  tooLarge(): AppError;
}

/** How a body is read: its caller's limit, the budget and the caller's key in it, and the JSON shape limits. */
export interface BodyReading {
  limit: BodyLimit;
  budget: BodyBudget;
  /** Whose share the body is charged to: the principal's id, or the client address of an anonymous caller. */
  caller: string;
  /** The bytes in flight that caller may hold. */
  share: number;
  shape: JsonShapeLimits;
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
 * Reads the body once, after the caller is known, and bounds what it can cost before any of it is parsed: a
 * declared length over the limit, or one that would not fit the budget now, is refused before a byte is read
 * (a client waiting for `100 Continue` is never told to send it); then every chunk, inflated if the body is
 * compressed, is counted against the limit and the budget and measured by the JSON shape guard as it arrives,
 * and the first one over any bound ends the reading with 413, 400 or 503. The bytes counted are given back
 * when the response is done. A multipart body is measured too: it is not JSON from its first byte, so the
 * guard stops counting at once (and a body labelled multipart that is JSON is bounded as JSON, since a
 * service would parse it as such).
 */
export async function readBody(req: IncomingMessage, res: ServerResponse, reading: BodyReading): Promise<Buffer> {
  if (!hasBody(req)) return EMPTY;
  const { limit, budget, caller, share } = reading;
  const coding = contentCoding(req.headers['content-encoding']);
  let counted = 0;
  res.once('close', () => budget.give(caller, counted));

  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined) {
    if (declared > limit.bytes) throw refused('declared-too-large', limit.tooLarge());
    // Checked, not reserved: a client that declares much and sends little holds only what it sent.
    if (!budget.fits(caller, share, declared, declared)) throw refused('budget', busy());
  }
  if (awaitingContinue.delete(req) && !res.headersSent) res.writeContinue();
  const guard = new JsonShapeGuard(reading.shape);
  return collect(req, coding, (chunk, total) => {
    if (total > limit.bytes)
      throw refused(coding === 'identity' ? 'too-large' : 'inflated-too-large', limit.tooLarge());
    if (!budget.take(caller, share, total - counted, total)) throw refused('budget', busy());
    counted = total;
    try {
      guard.write(chunk);
    } catch (error) {
      throw refused('shape', error);
    }
  });
}

/**
 * The body's chunks, inflated if compressed; `check` sees each chunk and the running total and refuses by
 * throwing, after which inflating stops and the rest of the request is read and dropped (so the connection
 * stays in step for its next request). Compressed bytes are inflated as they come, on zlib's threads.
 */
function collect(req: IncomingMessage, coding: Coding, check: (chunk: Buffer, total: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Gone while the caller was being authenticated: its `close` has been and will not come again.
    if (req.destroyed) {
      reject(badRequest('The request body did not arrive whole'));
      return;
    }
    const decoder = coding === 'identity' ? undefined : DECODERS[coding]();
    const source: Readable = decoder ?? req;
    const chunks: Buffer[] = [];
    let total = 0;
    let received = false;
    let settled = false;
    const finish = (error: unknown, body?: Buffer) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      source.off('end', onEnd);
      req.off('end', onReceived);
      req.off('close', onClose);
      req.off('error', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.off('error', onDecodeError);
        decoder.on('error', () => {});
        decoder.destroy();
      }
      chunks.length = 0;
      if (error) {
        if (!received) req.resume();
        reject(error);
      } else resolve(body as Buffer);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      try {
        check(chunk, total);
      } catch (error) {
        finish(error);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks, total));
    const onReceived = () => (received = true);
    const onClose = () => {
      if (!received) finish(badRequest('The request body did not arrive whole'));
    };
    const onDecodeError = () => finish(badRequest(`Malformed ${coding} body`));
    source.on('data', onData);
    source.on('end', onEnd);
    req.on('end', onReceived);
    req.on('close', onClose);
    req.on('error', onClose);
    if (decoder) {
      decoder.on('error', onDecodeError);
      req.pipe(decoder);
    }
  });
}

type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

const DECODERS = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function contentCoding(header: string | undefined): Coding {
  const coding = (header ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return 'identity';
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  throw refused(
    'encoding',
    new AppError('UnsupportedMediaType', 'Unsupported Content-Encoding; send identity, gzip, deflate or br'),
  );
}

/** Why bodies are refused, as the metric's label: a fixed set. */
type RefusalReason = 'declared-too-large' | 'too-large' | 'inflated-too-large' | 'budget' | 'shape' | 'encoding';

function refused(reason: RefusalReason, error: unknown): unknown {
  requestBodiesRefused.inc({ reason });
  return error;
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
