/**
 * Where the values of a type's fields live on a stored object (the storage
 * convention): a few core fields top-level on the document, every other one
 * in `doc.fields`, unset fields absent (they show their default).
 */
import { blocksText } from '../types';
import type { FileValue } from '../files/files';
import { readStoredJson } from './stored-json';
import type { ContentDoc } from './model';
import type { ContentType, TypeField, TypeRegistry } from '../types';

/** Fields kept top-level on ContentDoc (indexed, and read by every listing). */
export const CORE_FIELDS = new Set(['id', 'title', 'description', 'creators', 'effective', 'expires']);

/** The stored value of a field, or undefined when it is unset. */
export function storedValue(doc: ContentDoc, name: string): unknown {
  if (CORE_FIELDS.has(name)) {
    const value = (doc as unknown as Record<string, unknown>)[name];
    return value === null ? undefined : value;
  }
  return doc.fields?.[name];
}

/** A field's value with its default filled in, as rules across fields see it. */
export function currentValue(doc: ContentDoc, field: TypeField): unknown {
  const stored = storedValue(doc, field.name);
  if (stored === undefined) return field.default ?? null;
  return field.kind === 'json' ? jsonValue(stored) : stored;
}

/** A JSON field's value: stored as text (its keys may be ones the store does not allow), or as given. */
export function jsonValue(stored: unknown): unknown {
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored);
  } catch {
    return stored;
  }
}

/** A JSON field's value as `jsonValue` gives it, shared with the other readers of the same text: read it only. */
function sharedJsonValue(stored: unknown): unknown {
  if (typeof stored !== 'string') return stored;
  try {
    return readStoredJson(stored);
  } catch {
    return stored;
  }
}

/** Every field's value after `changes` (already validated and normalized) would be applied. */
export function valuesAfter(
  doc: ContentDoc | null,
  type: ContentType,
  changes: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of type.fields) {
    if (field.name in changes) values[field.name] = changes[field.name] ?? field.default ?? null;
    else values[field.name] = doc ? currentValue(doc, field) : (field.default ?? null);
  }
  return values;
}

/** The file and image values an object holds (their blobs are released when it goes). */
export function fileValuesOf(doc: ContentDoc, types: TypeRegistry): FileValue[] {
  const type = types.find(doc.portal_type);
  if (!type) return [];
  return type.fields
    .filter((f) => f.kind === 'file' || f.kind === 'image')
    .map((f) => doc.fields?.[f.name] as FileValue | undefined)
    .filter((v): v is FileValue => !!v && typeof v === 'object');
}

/** Text of HTML for the full-text index: tags dropped, common entities decoded. */
export function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x?27;|&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of an object for the full-text index: id, title, description and its searchable fields. */
export function searchableText(doc: ContentDoc, type: ContentType): string {
  const parts: string[] = [doc.id, doc.title, doc.description];
  for (const field of type.fields) {
    if (!field.searchable) continue;
    const value = storedValue(doc, field.name);
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) parts.push(...value.filter((v): v is string => typeof v === 'string'));
    else if (field.kind === 'richtext' && value && typeof value === 'object') {
      parts.push(stripHtml(String((value as { data?: unknown }).data ?? '')));
    }
  }
  if (type.field('blocks')) {
    const blocks = sharedJsonValue(storedValue(doc, 'blocks'));
    parts.push(...blocksText(blocks, sharedJsonValue(storedValue(doc, 'blocks_layout'))));
  }
  return parts.filter(Boolean).join(' ');
}
