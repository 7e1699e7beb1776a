/**
 * The content service's end of the file hop (services/shared/src/http/file-hop.ts): a small HTTP server that
 * answers `@@download` and `@@images` (and their scales) as a stream from the blob store, with `Range` (206, 416),
 * `ETag` / `Last-Modified` and 304. The gateway authenticates and forwards; the permission to view the object is
 * checked here, as the dispatcher does for the gRPC hop, and the file is the one the same endpoints select. Only a
 * request with the gateway's proof is read at all (`refuseUnproven`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import {
  AppError,
  badRequest,
  checkHttpProof,
  clip,
  decodeFileHopRequest,
  FILE_HOP_HEADER,
  FILE_HOP_PATH,
  FILE_HOP_REQUEST_ID_HEADER,
  MAX_FILE_HOP_HEADER_BYTES,
  matchSubPath,
  notFound,
  redirectOfMoved,
  requirePermission,
  SERVICE_PROOF_KEY,
  unauthorized,
  forbidden,
  type ContextResolver,
  type FileHop,
  type FileHopRequest,
  type Logger,
} from '@cms/shared';
import { outputOf } from '../domain/files';
import { answerSiteZip, type SiteZipOptions } from '../exchange/site-zip';
import type { ContentDoc } from '../domain/content';
import { TUS_VERSION } from '../domain/files';
import type { ContentDeps } from './declarations';
import { downloadSelection } from './download';
import { ENDPOINTS } from './endpoints';
import { filenameStar, SANDBOX, type FileSelection } from './file-response';
import { imageSelection } from './images';
import { appendUpload, tusOptions, uploadStatus, type TusRequest } from './tus-upload';

/** How each endpoint that declares it goes over the hop (`fileHop`). */
const HOP_OF: ReadonlyMap<string, FileHop> = new Map(
  ENDPOINTS.flatMap((e) => (e.fileHop ? [[e.name, e.fileHop] as const] : [])),
);

/** The sub-path patterns of the GET of each endpoint that streams files out (`fileHop: 'download'`). */
const PATTERNS: Record<string, string[][]> = Object.fromEntries(
  ENDPOINTS.filter((e) => e.fileHop === 'download').map((e) => [e.name, patternsOf(e.operations.GET?.paths)]),
);

function patternsOf(paths: readonly string[] | undefined): string[][] {
  return (paths ?? ['']).map((p) => p.split('/').filter(Boolean));
}

export interface FileHopServer {
  /** `host:port` it listens on. */
  address: string;
  stop(): Promise<void>;
}

/** Listens on `address` (`host:port`; port 0: a free one). */
export async function startFileHop(
  address: string,
  deps: ContentDeps,
  contexts: ContextResolver<ContentDoc>,
  siteZip: SiteZipOptions,
  logger: Logger,
): Promise<FileHopServer> {
  // Node's default 16 KB of headers would refuse (431, not JSON) the forwarded request of a long context path.
  const server = createServer(
    { maxHeaderSize: MAX_FILE_HOP_HEADER_BYTES + 16 * 1024 },
    (req, res) => void answer(req, res, deps, contexts, siteZip, logger),
  );
  // The gateway's keep-alive agent reuses connections; idle ones close well before a proxy would drop them.
  server.keepAliveTimeout = 30_000;
  const at = address.lastIndexOf(':');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(address.slice(at + 1)), address.slice(0, at), () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const host = address.slice(0, at) === '0.0.0.0' ? '127.0.0.1' : address.slice(0, at);
  return { address: `${host}:${bound.port}`, stop: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ContentDeps,
  contexts: ContextResolver<ContentDoc>,
  siteZip: SiteZipOptions,
  logger: Logger,
): Promise<void> {
  if (refuseUnproven(req, res, logger)) return;
  const hop = decodeFileHopRequest(headerOf(req, FILE_HOP_HEADER));
  const log = logger.child({ requestId: hop?.request_id });
  try {
    const onPath = (req.url ?? '').split('?')[0] === FILE_HOP_PATH;
    if (hop && HOP_OF.get(hop.endpoint) === 'upload' && onPath) {
      await answerUpload(req, res, hop, deps, contexts);
      return;
    }
    if (hop && HOP_OF.get(hop.endpoint) === 'site-zip' && onPath) {
      await answerSiteZip(req, res, hop, deps, contexts, siteZip, log);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new AppError('MethodNotAllowed', 'The file hop takes GET and HEAD', undefined, undefined, {
        Allow: 'GET, HEAD',
      });
    }
    if (!hop || (req.url ?? '').split('?')[0] !== FILE_HOP_PATH) throw badRequest('Not a forwarded file request');
    const patterns = PATTERNS[hop.endpoint];
    const params = patterns ? matchSubPath(patterns, hop.sub_path) : null;
    if (!params) throw notFound(`Resource not found: @@${hop.endpoint.slice(0, 100)}/${hop.sub_path.join('/')}`);
    await deps.typeSource.refresh(hop.request_id);
    const { context, scope } = await contexts.resolve('/' + hop.context_path.join('/'), hop.request_id, hop.public_url);
    requirePermission(hop.principal, 'View', scope);
    const selection =
      hop.endpoint === 'download'
        ? downloadSelection(context, params.field, deps)
        : await imageSelection(context, params, hop.request_id, deps);
    await serveSelection(req, res, selection, context, deps, log);
  } catch (error) {
    // A file of moved content: the redirect to its new place (the hop carries no query string).
    const moved =
      hop &&
      redirectOfMoved(error, {
        method: req.method ?? 'GET',
        publicUrl: hop.public_url,
        // An upload's endpoint is named with one `@`, the file views with two.
        rest: [`${HOP_OF.get(hop.endpoint) === 'upload' ? '@' : '@@'}${hop.endpoint}`, ...hop.sub_path],
        query: [],
      });
    if (moved) res.writeHead(moved.status, moved.headers).end();
    else sendHopError(res, error, hop?.request_id, log);
  }
}

/**
 * Answers a request without the gateway's valid proof (file-hop.ts) and says so: 401 without a proof, 403 with one
 * that does not hold (another key, too old, or made for another request). Nothing of the request is read, its body
 * neither: the connection closes with the answer.
 */
function refuseUnproven(req: IncomingMessage, res: ServerResponse, logger: Logger): boolean {
  const proof = headerOf(req, SERVICE_PROOF_KEY);
  const requestId = headerOf(req, FILE_HOP_REQUEST_ID_HEADER) ?? '';
  const reason = checkHttpProof(proof, {
    method: req.method ?? '',
    path: req.url ?? '',
    requestId,
    claim: headerOf(req, FILE_HOP_HEADER) ?? '',
  });
  if (reason === undefined) return false;
  logger.warn(
    { requestId: clip(requestId), peer: req.socket.remoteAddress, reason },
    'file request refused: no valid service proof',
  );
  res.setHeader('Connection', 'close');
  const error =
    proof === undefined
      ? unauthorized('The file hop serves only requests the gateway signs')
      : forbidden('The proof of this file request does not hold');
  sendHopError(res, error, undefined, logger);
  return true;
}

/**
 * `OPTIONS`, `HEAD` and `PATCH` of a resumable upload (tus-upload.ts): a `PATCH` body streams from the gateway into
 * the blob store. The caller must be able to view the context (as the dispatcher checks); the upload itself is its
 * announcer's only. `OPTIONS` describes the protocol, which is the same everywhere: it reads nothing.
 */
async function answerUpload(
  req: IncomingMessage,
  res: ServerResponse,
  hop: FileHopRequest,
  deps: ContentDeps,
  contexts: ContextResolver<ContentDoc>,
): Promise<void> {
  // Every TUS answer says the protocol version, errors too.
  res.setHeader('Tus-Resumable', TUS_VERSION);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, tusOptions(deps)).end();
    return;
  }
  const upload = hop.endpoint === 'tus-upload';
  if (!upload || (req.method !== 'HEAD' && req.method !== 'GET' && req.method !== 'PATCH')) {
    const allow = upload ? 'POST, HEAD, PATCH, OPTIONS' : 'POST, OPTIONS';
    throw new AppError('MethodNotAllowed', `@${hop.endpoint} takes ${allow}`, undefined, undefined, { Allow: allow });
  }
  const id = hop.sub_path.length === 1 ? hop.sub_path[0] : undefined;
  if (id === undefined) throw notFound(`Resource not found: @tus-upload/${hop.sub_path.join('/').slice(0, 100)}`);
  await deps.typeSource.refresh(hop.request_id);
  const { context, scope } = await contexts.resolve('/' + hop.context_path.join('/'), hop.request_id, hop.public_url);
  requirePermission(hop.principal, 'View', scope);
  const request: TusRequest = {
    context,
    caller: {
      principal: hop.principal,
      requestId: hop.request_id,
      publicUrl: hop.public_url,
      lockToken: headerOf(req, 'lock-token'),
    },
    header: (name) => headerOf(req, name),
  };
  const declared = headerOf(req, 'content-length');
  const result =
    req.method === 'PATCH'
      ? await appendUpload(request, id, req, declared === undefined ? undefined : Number(declared), deps)
      : await uploadStatus(request, id, deps);
  res.writeHead(result.status, result.headers ?? {}).end();
}

const headerOf = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Bytes to send: all of them, or one range; `unsatisfiable` when the range lies past the end. */
type RangeAnswer = { start: number; end: number } | 'all' | 'unsatisfiable';

/**
 * One `bytes=` range of RFC 9110 (`a-b`, `a-`, `-n`); several ranges or a malformed header are answered whole, as
 * the RFC allows a server to.
 */
export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return 'all';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return 'all';
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Whether the client's copy is current: `If-None-Match` (weak comparison), else `If-Modified-Since`. */
export function notModified(req: IncomingMessage, etag: string, modified: Date): boolean {
  const match = headerOf(req, 'if-none-match');
  if (match !== undefined) {
    return match
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const since = Date.parse(headerOf(req, 'if-modified-since') ?? '');
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}

/** `If-Range`: a range applies only to the representation the client has (its strong ETag or its date). */
function rangeApplies(req: IncomingMessage, etag: string, lastModified: string): boolean {
  const ifRange = headerOf(req, 'if-range');
  if (ifRange === undefined) return true;
  return ifRange.startsWith('"') ? ifRange === etag : ifRange === lastModified;
}

async function serveSelection(
  req: IncomingMessage,
  res: ServerResponse,
  selection: FileSelection,
  doc: ContentDoc,
  { files }: Pick<ContentDeps, 'files'>,
  log: Logger,
): Promise<void> {
  const { value } = selection;
  const scale = selection.kind === 'scale' ? selection : null;
  // A blob never changes: its id (and a scale's size) names its bytes for good.
  const etag = scale ? `"${value.blob_id}-${scale.width}x${scale.height}"` : `"${value.blob_id}"`;
  const modified = new Date(doc.modified);
  const lastModified = modified.toUTCString();
  const disposition = selection.kind === 'file' ? selection.disposition : 'inline';
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', lastModified);
  if (scale) res.setHeader('Cache-Control', scale.cacheControl);
  if (notModified(req, etag, modified)) {
    res.writeHead(304).end();
    return;
  }
  const scaleBytes = scale ? await files.readScale(value, scale.width, scale.height) : null;
  if (scale && !scaleBytes) throw missingBytes(value.filename, value.blob_id, doc, log);
  const size = scaleBytes ? scaleBytes.length : value.size;
  res.setHeader('Content-Type', scale ? outputOf(value).type : value.content_type);
  res.setHeader('Content-Disposition', `${disposition}; filename*=${filenameStar(value.filename)}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', SANDBOX);
  res.setHeader('Accept-Ranges', 'bytes');
  const range = rangeApplies(req, etag, lastModified) ? rangeOf(headerOf(req, 'range'), size) : 'all';
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Length': '0' }).end();
    return;
  }
  const part = range === 'all' ? { start: 0, end: size - 1 } : range;
  const length = size === 0 ? 0 : part.end - part.start + 1;
  if (range !== 'all') res.setHeader('Content-Range', `bytes ${part.start}-${part.end}/${size}`);
  res.setHeader('Content-Length', String(length));
  if (scaleBytes) {
    res.writeHead(range === 'all' ? 200 : 206);
    res.end(req.method === 'HEAD' ? undefined : scaleBytes.subarray(part.start, part.end + 1));
    return;
  }
  if (req.method === 'HEAD') {
    res.writeHead(range === 'all' ? 200 : 206).end();
    return;
  }
  const stream = length === 0 ? null : await files.open(value, part);
  if (length > 0 && !stream) throw missingBytes(value.filename, value.blob_id, doc, log);
  res.writeHead(range === 'all' ? 200 : 206);
  if (!stream) {
    res.end();
    return;
  }
  // A client that goes away ends the pipeline with an error: nothing more to answer.
  await pipeline(stream, res).catch((error: unknown) => log.debug({ err: error }, 'file stream ended early'));
}

function missingBytes(filename: string, blob: string, doc: ContentDoc, log: Logger): AppError {
  log.error({ blob, path: doc.path }, 'the blob of a file field is missing');
  return notFound(`The bytes of "${filename.slice(0, 200)}" are missing`);
}

/** An error as the gateway answers errors (addendum §4); a 500 says only that, with the trace in the log. */
function sendHopError(res: ServerResponse, error: unknown, requestId: string | undefined, log: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const known = error instanceof AppError ? error : null;
  if (!known) log.error({ err: error, requestId }, 'file request failed');
  const body = known
    ? known.toBody()
    : { type: 'InternalServerError', message: 'The file could not be served', request_id: requestId };
  for (const header of ['ETag', 'Last-Modified', 'Cache-Control']) res.removeHeader(header);
  res.writeHead(known?.httpStatus ?? 500, { 'Content-Type': 'application/json', ...(known?.headers ?? {}) });
  res.end(JSON.stringify(body));
}
