import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from 'node:zlib';
import { describe as describeJson, serialize, type Value } from './json';

/** Who sends a request: nobody, the member, the manager, the member's token, or a header of our own. */
export type Caller = 'anonymous' | 'member' | 'manager' | 'token' | 'as-given';

/** A request body before it is sent: nothing, JSON from the fuzzer's tree, text, or raw bytes. */
export type Body =
  | { kind: 'none' }
  /** `beyondBounds`: past the gateway's JSON shape limits, so never to be accepted. */
  | { kind: 'json'; value: Value; beyondBounds?: boolean }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] };

export interface FuzzRequest {
  method: string;
  /** The request target as sent (percent-encoded as the fuzzer chose). */
  target: string;
  caller: Caller;
  headers: Record<string, string>;
  body: Body;
  /** How the body travels: with its length, chunked, compressed, or declared far over the limit and never sent. */
  framing:
    | 'length'
    | 'chunked'
    | 'gzip'
    | 'deflate'
    | 'br'
    | 'bad-gzip'
    | 'declared-too-large'
    | 'gzip-bomb'
    | 'deflate-bomb'
    | 'br-bomb';
  /** What the request is about, for reports. */
  kind: string;
  /** A body past the gateway's bounds (its JSON shape limits, or a bomb): its answer must be a refusal. */
  beyondBounds?: boolean;
}

export interface FuzzResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

/** Larger than any MAX_BODY_BYTES the suite runs with; declared only, never sent. */
export const DECLARED_TOO_LARGE = 1024 * 1024 * 1024;

/** What a compressed bomb inflates to: twice any MAX_BODY_BYTES the suite runs with (its default, 32 MiB). */
export const BOMB_INFLATED_BYTES = 64 * 1024 * 1024;

const bombs = new Map<string, Buffer>();

/**
 * A body of a few dozen KiB that inflates to BOMB_INFLATED_BYTES of JSON whitespace before a value (the gateway
 * must stop inflating at its limit, not hold it all), made once per coding.
 */
function bombOf(coding: 'gzip' | 'deflate' | 'br'): Buffer {
  let bomb = bombs.get(coding);
  if (!bomb) {
    const inflated = Buffer.alloc(BOMB_INFLATED_BYTES, 0x20);
    inflated.write('{}', BOMB_INFLATED_BYTES - 2);
    bomb =
      coding === 'gzip'
        ? gzipSync(inflated, { level: 9 })
        : coding === 'deflate'
          ? deflateSync(inflated, { level: 9 })
          : brotliCompressSync(inflated, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
    bombs.set(coding, bomb);
  }
  return bomb;
}

export function bodyBytes(body: Body): Buffer {
  switch (body.kind) {
    case 'none':
      return Buffer.alloc(0);
    case 'json':
      return Buffer.from(serialize(body.value), 'utf8');
    case 'text':
      return Buffer.from(body.text, 'utf8');
    case 'bytes':
      return Buffer.from(body.bytes);
  }
}

export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${clipped(value, 80)}`)
    .join('; ');
  return (
    `[${request.kind}] ${request.caller} ${request.method} ${clipped(request.target, 300)} (${request.framing})` +
    (headers ? ` headers {${headers}}` : '') +
    describeBody(request.body)
  );
}

function describeBody(body: Body): string {
  switch (body.kind) {
    case 'none':
      return '';
    case 'json':
      return ` body ${describeJson(body.value)}`;
    case 'text':
      return ` body text ${clipped(JSON.stringify(body.text), 200)}`;
    case 'bytes':
      return ` body bytes [${clipped(body.bytes.join(','), 120)}]`;
  }
}

/** The start of a long text, and how long it was. */
function clipped(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}

/** One keep-alive connection, used by one request at a time. */
export class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    readonly port: number,
    private readonly authorizationOf: (caller: Caller) => string | undefined,
    private readonly timeoutMs: number,
  ) {}

  close(): void {
    this.agent.destroy();
  }

  send(request: FuzzRequest): Promise<FuzzResponse> {
    const headers: Record<string, string | number> = { ...request.headers };
    const authorization = this.authorizationOf(request.caller);
    if (authorization !== undefined) headers.Authorization = authorization;
    let bytes = bodyBytes(request.body);
    let chunks: Buffer[] | undefined;
    let agent: Agent | false = this.agent;
    switch (request.framing) {
      case 'gzip':
      case 'deflate':
      case 'br':
        bytes =
          request.framing === 'gzip'
            ? gzipSync(bytes)
            : request.framing === 'deflate'
              ? deflateSync(bytes)
              : brotliCompressSync(bytes);
        headers['Content-Encoding'] = request.framing;
        break;
      case 'bad-gzip':
        headers['Content-Encoding'] = 'gzip';
        break;
      case 'gzip-bomb':
      case 'deflate-bomb':
      case 'br-bomb': {
        const coding = request.framing.slice(0, -'-bomb'.length) as 'gzip' | 'deflate' | 'br';
        bytes = bombOf(coding);
        headers['Content-Encoding'] = coding;
        break;
      }
      case 'chunked':
        headers['Transfer-Encoding'] = 'chunked';
        chunks = [];
        for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
        break;
      case 'declared-too-large':
        // Never sent: the connection cannot be used again, so it is one of its own.
        agent = false;
        bytes = Buffer.alloc(0);
        break;
    }
    if (request.framing === 'declared-too-large') headers['Content-Length'] = DECLARED_TOO_LARGE;
    else if (!chunks && (bytes.length > 0 || request.method !== 'GET')) headers['Content-Length'] = bytes.length;

    return new Promise((resolve, reject) => {
      const started = Date.now();
      let settled = false;
      let bodySent = false;
      const req = httpRequest(
        { host: '127.0.0.1', port: this.port, method: request.method, path: request.target, headers, agent },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => parts.push(chunk));
          res.on('end', () => {
            settled = true;
            // A body never sent leaves the connection unusable.
            if (request.framing === 'declared-too-large' || !bodySent) req.destroy();
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(parts),
              ms: Date.now() - started,
            });
          });
          res.on('error', (error) => {
            settled = true;
            reject(error);
          });
        },
      );
      req.setTimeout(this.timeoutMs, () => {
        req.destroy(new Error(`no answer within ${this.timeoutMs} ms`));
      });
      req.on('error', (error) => {
        if (!settled) reject(error);
      });
      if (request.framing === 'declared-too-large') {
        req.flushHeaders();
        return;
      }
      const sendBody = () => {
        bodySent = true;
        if (chunks) {
          for (const chunk of chunks) req.write(chunk);
          req.end();
        } else req.end(bytes);
      };
      // As a client should: the body waits for `100 Continue`, and is not sent at all when the answer comes first
      // (the server then closes the connection, which a body still being written would meet as a reset).
      if (
        Object.entries(headers).some(([name, v]) => name.toLowerCase() === 'expect' && /100-continue/i.test(String(v)))
      ) {
        req.flushHeaders();
        req.once('continue', sendBody);
      } else sendBody();
    });
  }
}
