/**
 * HTTP caching of GET answers at the gateway: validators (ETag, Last-Modified) and 304, Vary, Cache-Control by
 * the caching settings, the tag header for caching proxies, and the gateway's own cache (http-cache.ts, whose
 * comment says why a cached answer is never stale).
 */
import {
  NEIGHBOURS_HEADER,
  SHOWS_HEADER,
  shownPathsOf,
  type AnswerKind,
  type HttpResponse__Output,
  type Principal__Output,
  type Route,
} from '@cms/shared';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { cacheControlOf, type CacheRules } from './cache-rules';
import { etagOf, lastModifiedOf, notModified, RepresentationDates, tagsOf } from './conditional';
import type { CacheGate } from './replica-subscriptions';
import type { CachedAnswer, CacheScope, ResponseCache } from './http-cache';

/** Request headers every GET answer may depend on (besides the path, query and public origin). */
const VARY = 'Accept, Accept-Language, Authorization';
const VARY_CORS = `${VARY}, Origin`;
/** The headers of those in the cache key, with the forwarded ones (`Lock-Token`, `Prefer`). */
const KEY_HEADERS = ['accept', 'accept-language', 'origin', 'lock-token', 'prefer'] as const;

/** A query naming one of these renders other objects too (components, full objects): any write may change it. */
const TREE_QUERY = /(?:^|[?&])(?:expand|fullobjects|include_items)/;
/** A Collection's items come from the search index, which lags the write: never kept. */
const COLLECTION = Buffer.from('"@type":"Collection"');

export interface CachingRequest {
  route: Route;
  endpoint: string;
  /** Decoded context segments. */
  context: string[];
  principal: Principal__Output | null;
  publicUrl: string;
  requestId: string;
  /** Whether CORS is on (answers then vary by Origin). */
  cors: boolean;
}

/**
 * Whether answers of this route may be kept in the gateway's cache at all: content's whose declaration names a
 * scope (`gatewayCache`), their dependencies being known by path (see http-cache.ts).
 */
export function gatewayCached(route: Route): boolean {
  return route.service === 'content' && route.gatewayCache !== undefined;
}

export class HttpCaching {
  /** Dates of the representations answered, so a changed one never looks unmodified. */
  private readonly dates = new RepresentationDates();

  constructor(
    private readonly rules: (requestId: string) => Promise<CacheRules>,
    private readonly cache?: ResponseCache,
    private readonly changes?: CacheGate,
  ) {}

  /** Answers a GET (or HEAD): from the gateway's cache when it may, else by `fetch`, with validators and 304. */
  async answer(
    req: Request,
    res: Response,
    request: CachingRequest,
    fetch: () => Promise<HttpResponse__Output>,
  ): Promise<void> {
    const rules = await this.rules(request.requestId);
    const anonymous = request.principal === null;
    const kind = request.route.cache;
    const caller = anonymous ? '' : principalKey(request.principal as Principal__Output);
    const { key, scope, varyValues } = this.keyOf(req, request, rules, caller);
    // A request asking for a fresh answer (`Cache-Control: no-cache`, RFC 9111 §5.2.1.4) is not served from here.
    if (key && this.changes?.serving() && !wantsFresh(req)) {
      const cached = this.cache?.get(key);
      if (cached) {
        this.send(req, res, cached, rules, kind, anonymous, request.cors, 'HIT');
        return;
      }
    }
    // Taken before the fetch leaves: a change applied while it is on its way may predate what it reads.
    const ticket = this.changes?.ticket() ?? 0;
    const response = await fetch();
    if (response.status !== 200) {
      sendResponse(res, response);
      return;
    }
    const neighbours = takeHeader(response.headers, NEIGHBOURS_HEADER) === '1';
    const shows = shownPathsOf(takeHeader(response.headers, SHOWS_HEADER));
    const contentType = headerIn(response.headers, 'content-type');
    // A service that sets its own validators (files) keeps them; the gateway makes them for the rest.
    const etag = headerIn(response.headers, 'etag') ?? etagOf(response.body, caller, varyValues);
    const shown =
      kind === 'content' && request.endpoint === '' ? lastModifiedOf(response.body, contentType) : undefined;
    const answer: CachedAnswer = {
      status: response.status,
      headers: response.headers,
      body: response.body,
      etag,
      lastModified:
        headerIn(response.headers, 'last-modified') ??
        (shown && this.dates.dateOf(representationKey(req, request, caller, varyValues), etag, shown)),
      tags: anonymous ? tagsOf(response.body, contentType) : [],
    };
    if (key && scope && this.changes?.current(ticket) && !response.body.includes(COLLECTION)) {
      this.cache?.set(key, contextPath(request.context), scope, answer, { neighbours, shows });
    }
    this.send(req, res, answer, rules, kind, anonymous, request.cors, key ? 'MISS' : undefined);
  }

  /**
   * Sends an anonymous GET's answer from the cache alone, as `answer` would (cache-front.ts calls it before
   * Express); false, with nothing sent, when the cache does not hold it or may not be used.
   */
  async tryHit(req: IncomingMessage, res: ServerResponse, request: CachingRequest): Promise<boolean> {
    if (request.principal !== null || !this.changes?.serving() || wantsFresh(req)) return false;
    const rules = await this.rules(request.requestId);
    const { key } = this.keyOf(req, request, rules, '');
    // Checked again after the wait: a lost stream must not be served from.
    const cached = key && this.changes.serving() ? this.cache?.get(key, { countMiss: false }) : undefined;
    if (!cached) return false;
    this.send(req, res, cached, rules, request.route.cache, true, request.cors, 'HIT');
    return true;
  }

  /** The cache key of a request (undefined when its answer is not kept), its scope, and its varying headers. */
  private keyOf(req: IncomingMessage, request: CachingRequest, rules: CacheRules, caller: string) {
    const url = req.url ?? '';
    const varyValues = KEY_HEADERS.map((name) => headerOf(req, name)).join('\n');
    const scope = this.scopeOf(request, url, rules, caller === '');
    const key = scope && `${request.publicUrl}\n${url}\n${caller}\n${varyValues}`;
    return { key, scope, varyValues };
  }

  /** Cache-Control of a file answer the caching rules give, for the file hop (file-proxy.ts), which bypasses `answer`. */
  async fileCacheControl(requestId: string, kind: AnswerKind, anonymous: boolean): Promise<string> {
    return cacheControlOf(await this.rules(requestId), kind, anonymous);
  }

  private scopeOf(request: CachingRequest, url: string, rules: CacheRules, anonymous: boolean): CacheScope | undefined {
    if (!this.cache || !rules.enabled || !gatewayCached(request.route)) return undefined;
    if (!anonymous && !rules.authenticated) return undefined;
    const scope = request.route.gatewayCache;
    if (!scope) return undefined;
    const query = url.indexOf('?');
    return query !== -1 && TREE_QUERY.test(url.slice(query)) ? 'tree' : scope;
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: CachedAnswer,
    rules: CacheRules,
    kind: AnswerKind,
    anonymous: boolean,
    cors: boolean,
    cacheStatus: 'HIT' | 'MISS' | undefined,
  ): void {
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', cacheControlOf(rules, kind, anonymous));
    res.setHeader('Vary', cors ? VARY_CORS : VARY);
    res.setHeader('ETag', answer.etag);
    if (answer.lastModified) res.setHeader('Last-Modified', answer.lastModified);
    if (answer.tags.length)
      res.setHeader(rules.tagHeader, answer.tags.join(rules.tagHeader === 'Cache-Tag' ? ',' : ' '));
    if (cacheStatus) res.setHeader('X-Cache', cacheStatus);
    if (notModified(req.headers, answer.etag, answer.lastModified)) {
      // RFC 9110 §15.4.5: the validators and caching headers stay, the representation's do not.
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Length');
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = answer.status;
    if (!res.hasHeader('Content-Type') && answer.body.length > 0) res.setHeader('Content-Type', 'application/json');
    res.end(answer.body);
  }
}

/** A service's answer as it came (not a 200: no validators, no caching). */
export function sendResponse(res: Response, response: HttpResponse__Output): void {
  takeHeader(response.headers, NEIGHBOURS_HEADER);
  takeHeader(response.headers, SHOWS_HEADER);
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.body.length > 0) {
    if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
    res.end(response.body);
  } else {
    res.end();
  }
}

/** Removes a header meant for the gateway from a service's answer; its value, if it had it. */
function takeHeader(headers: Record<string, string>, lowerCaseName: string): string | undefined {
  const value = headerIn(headers, lowerCaseName);
  for (const name of Object.keys(headers)) if (name.toLowerCase() === lowerCaseName) delete headers[name];
  return value;
}

/** A header of a service's answer, whatever the case of its name. */
function headerIn(headers: Record<string, string>, lowerCaseName: string): string | undefined {
  if (lowerCaseName in headers) return headers[lowerCaseName];
  for (const name of Object.keys(headers)) if (name.toLowerCase() === lowerCaseName) return headers[name];
  return undefined;
}

export function wantsFresh(req: IncomingMessage): boolean {
  const cacheControl = req.headers['cache-control'];
  return (
    (cacheControl !== undefined && /\bno-cache\b/i.test(cacheControl)) ||
    (cacheControl === undefined && req.headers.pragma === 'no-cache')
  );
}

function headerOf(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/** What an authenticated answer depends on about its caller: who, with which roles and groups. */
function principalKey(principal: Principal__Output): string {
  return `${principal.id}\u0001${principal.roles.join(',')}\u0001${principal.groups.join(',')}`;
}

export function contextPath(segments: readonly string[]): string {
  return `/${segments.join('/')}`;
}

/** What names one representation: the URL as asked, by whom, and the headers it varies by. */
function representationKey(req: IncomingMessage, request: CachingRequest, caller: string, varyValues: string) {
  return `${request.publicUrl}\n${req.url ?? ''}\n${caller}\n${varyValues}`;
}

/**
 * The ETags a GET of the object would have carried for this caller: with the write's own varying headers, and
 * without the two a write adds to what its client read with (`Prefer`, `Lock-Token`).
 */
export function etagsFor(req: IncomingMessage, principal: Principal__Output | null, body: Buffer): string[] {
  const caller = principal === null ? '' : principalKey(principal);
  const asSent = KEY_HEADERS.map((name) => headerOf(req, name)).join('\n');
  const asRead = KEY_HEADERS.map((name) =>
    name === 'prefer' || name === 'lock-token' ? '' : headerOf(req, name),
  ).join('\n');
  return [...new Set([etagOf(body, caller, asSent), etagOf(body, caller, asRead)])];
}
