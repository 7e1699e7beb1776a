/**
 * Conditional GETs (RFC 9110 §13): validators of an answer and the check of `If-None-Match` /
 * `If-Modified-Since` against them.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A strong ETag of everything the answer depends on: its bytes (which show the objects' versions, their lock
 * and the language they are rendered in) and who asked (anonymous, or which principal: two callers may get the
 * same bytes but not the same right to them), and the request headers it varies by.
 */
export function etagOf(body: Buffer, caller: string, vary: string): string {
  return `"${createHash('sha1').update(body).update('\0').update(caller).update('\0').update(vary).digest('base64url')}"`;
}

/** `modified` of a JSON object answer as an HTTP date; undefined when it has none. */
export function lastModifiedOf(body: Buffer, contentType: string | undefined): string | undefined {
  if (contentType && !contentType.startsWith('application/json')) return undefined;
  const modified = topLevelString(body, MODIFIED);
  if (modified === undefined) return undefined;
  const time = Date.parse(modified);
  return Number.isNaN(time) ? undefined : new Date(time).toUTCString();
}

const MODIFIED = Buffer.from('"modified"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The string value of a member of the top-level JSON object, found by one pass over the bytes (strings
 * skipped, depth counted) rather than by parsing the whole answer: this runs on every GET.
 */
export function topLevelString(body: Buffer, key: Buffer): string | undefined {
  if (body.length === 0 || body[0] !== 0x7b || !body.includes(key)) return undefined;
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      const start = i;
      for (i++; i < body.length && body[i] !== QUOTE; i++) if (body[i] === BACKSLASH) i++;
      if (
        depth === 1 &&
        expectKey &&
        i - start + 1 === key.length &&
        body.compare(key, 0, key.length, start, i + 1) === 0
      ) {
        let j = i + 1;
        while (body[j] === 0x20) j++;
        if (body[j] !== 0x3a) return undefined;
        for (j++; body[j] === 0x20;) j++;
        if (body[j] !== QUOTE) return undefined;
        const valueStart = j;
        for (j++; j < body.length && body[j] !== QUOTE; j++) if (body[j] === BACKSLASH) j++;
        try {
          return JSON.parse(body.toString('utf8', valueStart, j + 1)) as string;
        } catch {
          return undefined;
        }
      }
      expectKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      expectKey = c === 0x7b && depth === 1;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = depth === 1;
    }
  }
  return undefined;
}

/**
 * Whether the client's copy is current: `If-None-Match` (weak comparison, `*` matches) decides when present,
 * else `If-Modified-Since` against `lastModified` (second precision).
 */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: string | undefined): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    const opaque = etag.replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}

const UID_MEMBER = Buffer.from('"UID":"');
const UID_VALUE = /^(?:[0-9a-f]{32}|[0-9a-f-]{36})$/;
/** At most this many tags in a header; an answer showing more is tagged by its first ones. */
const MAX_TAGS = 100;

/** The UIDs a JSON answer shows (the object, its items, ...), each once, in order; found without parsing it. */
export function tagsOf(body: Buffer, contentType: string | undefined): string[] {
  if (contentType && !contentType.startsWith('application/json')) return [];
  const tags = new Set<string>();
  for (let at = body.indexOf(UID_MEMBER); at !== -1 && tags.size < MAX_TAGS;) {
    const start = at + UID_MEMBER.length;
    const end = body.indexOf(QUOTE, start);
    if (end === -1) break;
    const uid = body.toString('latin1', start, end);
    if (UID_VALUE.test(uid)) tags.add(uid);
    at = body.indexOf(UID_MEMBER, end);
  }
  return [...tags];
}

/**
 * The `Last-Modified` of each representation this gateway answered (by request key): the object's `modified`,
 * unless the representation changed while `modified` did not (a workflow state, sharing, the items shown), when
 * it becomes a second later than the date last sent for the earlier one, so `If-Modified-Since` never declares a
 * changed representation unchanged (addendum §8). Kept for the most recent `maxEntries` keys; a key forgotten (or
 * answered by another gateway process) falls back to `modified`.
 */
export class RepresentationDates {
  private readonly seen = new Map<string, { etag: string; date: number }>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The HTTP date to send for this representation (`etag`) of `key`, given the date the answer itself shows. */
  dateOf(key: string, etag: string, shown: string): string {
    const base = Math.floor(Date.parse(shown) / 1000) * 1000;
    const before = this.seen.get(key);
    let date = base;
    if (before?.etag === etag) date = before.date;
    else if (before) date = Math.max(base, before.date + 1000, Math.floor(this.now() / 1000) * 1000);
    this.seen.delete(key);
    this.seen.set(key, { etag, date });
    if (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value as string);
    return new Date(date).toUTCString();
  }
}

/**
 * Whether a write's `If-Match` holds (RFC 9110 §13.1.1): `*` when there is a current representation, else one of
 * its tags equal (strong comparison: weak tags never match) to one of the current ETags (none: no representation).
 */
export function ifMatchHolds(ifMatch: string, current: readonly string[]): boolean {
  if (ifMatch.trim() === '*') return current.length > 0;
  return ifMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return !trimmed.startsWith('W/') && current.includes(trimmed);
  });
}
