/**
 * Links between content objects inside the values of rich text, blocks and a Link's `remoteUrl`. A link to an
 * object of the site is stored by UID (`resolveuid/<UID>`, `${portal_url}/resolveuid/<UID>` in `remoteUrl`) and
 * served as the object's current URL, so that moving or renaming it never breaks a link to it (as the original
 * platform does on deserialization and serialization). No I/O: objects are found through the functions given.
 */
import { urlOf } from '@cms/shared';
import type { ContentType, TypeField } from '../types';
import { readStoredJson } from '../content/stored-json';

/** The relation name of links in text, blocks and `remoteUrl` (the original platform's, in `@relations`). */
export const LINK_RELATION = 'isReferencing';

/** The placeholder of the site's URL in a stored `remoteUrl` (the original platform's). */
const PORTAL_URL = '${portal_url}';

/** `…resolveuid/<UID><suffix>`: the UID, then what followed the object's path (`/@@download/file`, `#part`). */
const RESOLVEUID = /^(?:|.*\/)resolve[Uu]id\/([^/#?]+)(.*)$/s;

/** Where an object's path ends in a link: a view (`/@@images/image`), an endpoint, a query or a fragment. */
const PATH_END = /\/@@|\/@|[?#]/;

/** Block members that hold one link, or a list of them (the original platform's smart block fields). */
const BLOCK_LINK_KEYS = new Set(['url', 'href', 'preview_image']);

/** Where an `href` or `src` attribute value starts in HTML, with its quote. */
const HTML_LINK_START = /\s(?:href|src)\s*=\s*(["'])/;

/** How far a walk of blocks goes: deeper values are left as they are. */
const MAX_DEPTH = 64;

export type LinkKind = 'html' | 'blocks' | 'remoteUrl';

/** The fields of a type whose values may hold links, and how each holds them. */
export function linkFields(type: ContentType): { field: TypeField; kind: LinkKind }[] {
  const found: { field: TypeField; kind: LinkKind }[] = [];
  for (const field of type.fields) {
    if (field.kind === 'richtext') found.push({ field, kind: 'html' });
    else if (field.name === 'blocks' && field.kind === 'json') found.push({ field, kind: 'blocks' });
    else if (field.name === 'remoteUrl') found.push({ field, kind: 'remoteUrl' });
  }
  return found;
}

/** The UID a `resolveuid` link names, with what followed it; null for any other link. */
export function resolveUidLink(link: string): { uid: string; suffix: string } | null {
  const match = RESOLVEUID.exec(link);
  return match ? { uid: match[1], suffix: match[2] } : null;
}

/**
 * The site-relative path of the object a client's link names, with what followed that path; null when the
 * link points elsewhere (another site, a `mailto:`, a relative link) or at the site root itself. Without the
 * site's URL (null), only site paths and `${portal_url}` links are recognized.
 */
export function sitePathOf(link: string, publicUrl: string | null): { path: string; suffix: string } | null {
  let rest: string;
  if (link.startsWith(PORTAL_URL)) rest = link.slice(PORTAL_URL.length);
  else if (publicUrl !== null && (link === publicUrl || link.startsWith(publicUrl + '/'))) {
    rest = link.slice(publicUrl.length);
  } else if (link.startsWith('/') && !link.startsWith('//')) rest = link;
  else return null;
  const end = rest.search(PATH_END);
  const rawPath = (end < 0 ? rest : rest.slice(0, end)).replace(/\/+$/, '');
  if (!rawPath || rawPath.includes('/resolveuid/') || /^\/resolve[Uu]id\//.test(rawPath)) return null;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null; // malformed percent-encoding names nothing
  }
  return { path: path.replace(/\/{2,}/g, '/'), suffix: end < 0 ? '' : rest.slice(end) };
}

/** The links found in a blocks value, by the value (never changed once stored: stored-json.ts). */
const blockLinks = new WeakMap<object, readonly string[]>();

/** Every link a field's value holds, as stored or as sent. */
export function linksIn(kind: LinkKind, value: unknown): readonly string[] {
  // Blocks shared by their readers (stored-json.ts) are walked once: the write resolving its links and the
  // reference index after it read the same value.
  const shared = kind === 'blocks' && typeof value === 'object' && value !== null;
  const known = shared ? blockLinks.get(value) : undefined;
  if (known) return known;
  const found: string[] = [];
  mapLinks(kind, value, (link) => {
    found.push(link);
    return undefined;
  });
  if (shared) blockLinks.set(value as object, found);
  return found;
}

/**
 * The value with each link `replace` gives a replacement for replaced (undefined: kept); the value itself is
 * never changed. Rich text is `{data: html, ...}` or the HTML itself; blocks are an object of block id to block.
 */
export function mapLinks(kind: LinkKind, value: unknown, replace: (link: string) => string | undefined): unknown {
  switch (kind) {
    case 'remoteUrl':
      return typeof value === 'string' ? (replace(value) ?? value) : value;
    case 'html':
      if (typeof value === 'string') return mapHtmlLinks(value, replace);
      if (isObject(value) && typeof value.data === 'string') {
        return { ...value, data: mapHtmlLinks(value.data, replace) };
      }
      return value;
    case 'blocks':
      return mapBlockLinks(value, undefined, replace, 0);
  }
}

/**
 * Each `href` / `src` attribute value replaced. A hand scan rather than one regular expression with a lazy value:
 * an attribute whose quote never closes would make that expression rescan the rest of the text at every attribute.
 */
function mapHtmlLinks(html: string, replace: (link: string) => string | undefined): string {
  const attribute = new RegExp(HTML_LINK_START.source, 'gi');
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  for (let match = attribute.exec(html); match; match = attribute.exec(html)) {
    const quote = match[1];
    if (unclosed.has(quote)) continue;
    const start = match.index + match[0].length;
    const end = html.indexOf(quote, start);
    if (end < 0) {
      // No quote of this kind closes after here: none of the attributes further on can close either.
      unclosed.add(quote);
      continue;
    }
    const next = replace(html.slice(start, end).replace(/&amp;/g, '&'));
    if (next !== undefined) {
      out += html.slice(copied, start) + next.replace(/&/g, '&amp;');
      copied = end;
    }
    attribute.lastIndex = end + 1;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** Links in blocks: strings under the link members (in lists too), `@id` of objects, values of URL objects. */
function mapBlockLinks(
  value: unknown,
  key: string | undefined,
  replace: (link: string) => string | undefined,
  depth: number,
): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === 'string') return key && BLOCK_LINK_KEYS.has(key) ? (replace(value) ?? value) : value;
  // Copied only where a link is replaced: finding the links of a large page (linksIn) allocates nothing.
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = mapBlockLinks(value[i], key, replace, depth + 1);
      if (next !== value[i]) (copy ??= value.slice())[i] = next;
    }
    return copy ?? value;
  }
  if (!isObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const member in value) {
    if (!Object.prototype.hasOwnProperty.call(value, member)) continue;
    const inner = value[member];
    let next: unknown;
    if (member === '@id' && typeof inner === 'string') next = replace(inner) ?? inner;
    else if (member === 'value' && value['@type'] === 'URL' && typeof inner === 'string')
      next = replace(inner) ?? inner;
    else next = mapBlockLinks(inner, member, replace, depth + 1);
    if (next !== inner) (copy ??= { ...value })[member] = next;
  }
  return copy ?? value;
}

/** Finds the UID of the object at a site-relative path (null: none). */
export type PathLookup = (path: string) => Promise<string | null>;

/**
 * Field values as they are stored: each link to an object of the site (its URL, its site path, or
 * `${portal_url}/<path>`) becomes a link by UID. A link to no object, or to the site root, is kept as sent.
 */
export async function storedLinks(
  type: ContentType,
  values: Readonly<Record<string, unknown>>,
  publicUrl: string,
  uidAt: PathLookup,
): Promise<Record<string, unknown>> {
  const stored: Record<string, unknown> = { ...values };
  for (const { field, kind } of linkFields(type)) {
    const value = values[field.name];
    if (value === undefined || value === null) continue;
    const uids = new Map<string, string | null>();
    for (const link of linksIn(kind, value)) {
      const target = sitePathOf(link, publicUrl);
      if (target && !uids.has(target.path)) uids.set(target.path, await uidAt(target.path));
    }
    if (![...uids.values()].some(Boolean)) continue;
    stored[field.name] = mapLinks(kind, value, (link) => {
      const target = sitePathOf(link, publicUrl);
      const uid = target ? uids.get(target.path) : null;
      if (!target || !uid) return undefined;
      return `${kind === 'remoteUrl' ? `${PORTAL_URL}/` : ''}resolveuid/${uid}${target.suffix}`;
    });
  }
  return stored;
}

/** The UIDs the `resolveuid` links of a stored value name (to find their current paths before serving it). */
export function linkedUids(kind: LinkKind, value: unknown): string[] {
  const uids = new Set<string>();
  for (const link of linksIn(kind, value)) {
    const found = resolveUidLink(link);
    if (found) uids.add(found.uid);
  }
  return [...uids];
}

/**
 * A stored value as served: each `resolveuid` link to an object in `paths` (UID → current site path) becomes
 * the object's URL; `${portal_url}` in `remoteUrl` becomes the site's URL. Links to objects that are gone are
 * served as stored, as the original platform does.
 */
export function servedLinks(
  kind: LinkKind,
  value: unknown,
  paths: ReadonlyMap<string, string>,
  publicUrl: string,
): unknown {
  return mapLinks(kind, value, (link) => {
    const found = resolveUidLink(link);
    const path = found ? paths.get(found.uid) : undefined;
    if (found && path !== undefined) return urlOf(publicUrl, path) + found.suffix;
    if (kind === 'remoteUrl' && link.startsWith(PORTAL_URL)) return publicUrl + link.slice(PORTAL_URL.length);
    return undefined;
  });
}

/** The UIDs the `resolveuid` links of a stored object's fields name. */
export function linkedUidsOf(fields: Readonly<Record<string, unknown>>, type: ContentType): string[] {
  const uids = new Set<string>();
  for (const { field, kind } of linkFields(type)) {
    for (const uid of linkedUids(kind, parsedValue(kind, fields[field.name]))) uids.add(uid);
  }
  return [...uids];
}

/** The current site paths of the objects an object's links name (UID → path), for `servedLinkFields`. */
export async function linkTargetsOf(
  fields: Readonly<Record<string, unknown>>,
  type: ContentType,
  byUids: (uids: string[]) => Promise<{ _id: string; path?: string }[]>,
): Promise<Map<string, string>> {
  const uids = linkedUidsOf(fields, type);
  const found = uids.length ? await byUids(uids) : [];
  return new Map(found.filter((d) => d.path !== undefined).map((d) => [d._id, d.path as string]));
}

/** The link fields of a serialized object as served (see `servedLinks`); the other members are not touched. */
export function servedLinkFields(
  type: ContentType,
  body: Readonly<Record<string, unknown>>,
  targets: ReadonlyMap<string, string>,
  publicUrl: string,
): Record<string, unknown> {
  const served: Record<string, unknown> = {};
  for (const { field, kind } of linkFields(type)) {
    if (body[field.name] !== undefined) served[field.name] = servedLinks(kind, body[field.name], targets, publicUrl);
  }
  return served;
}

/** One reference an object holds: by relation name, to a UID or (a link not stored by UID) to a site path. */
export interface Reference {
  relation: string;
  target: { uid: string } | { path: string };
}

/**
 * Every reference a stored object holds: the UIDs of its relation fields (each under the field's name), and
 * its links to content in text, blocks and `remoteUrl` (under `isReferencing`), by UID or by site path.
 */
export function referencesOf(fields: Readonly<Record<string, unknown>>, type: ContentType): Reference[] {
  const found: Reference[] = [];
  for (const field of type.fields) {
    if (field.kind !== 'relationlist') continue;
    const value = fields[field.name];
    if (!Array.isArray(value)) continue;
    for (const uid of value) if (typeof uid === 'string') found.push({ relation: field.name, target: { uid } });
  }
  for (const { field, kind } of linkFields(type)) {
    const value = parsedValue(kind, fields[field.name]);
    for (const link of linksIn(kind, value)) {
      const byUid = resolveUidLink(link);
      if (byUid) {
        found.push({ relation: LINK_RELATION, target: { uid: byUid.uid } });
        continue;
      }
      // Site paths of links stored before their target existed; absolute URLs would need the request's site URL.
      const byPath = sitePathOf(link, null);
      if (byPath) found.push({ relation: LINK_RELATION, target: { path: byPath.path } });
    }
  }
  return found;
}

/** Blocks are stored as JSON text (field-values.ts), parsed once for all readers; the other kinds as they are. */
function parsedValue(kind: LinkKind, stored: unknown): unknown {
  if (kind !== 'blocks' || typeof stored !== 'string') return stored;
  try {
    return readStoredJson(stored);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
