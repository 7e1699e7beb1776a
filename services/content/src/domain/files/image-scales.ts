/**
 * Image scales (`@@images/<field>/<scale>`): smaller renditions of an image field, named by the imaging settings
 * (`allowed_sizes`), made on first request, kept beside the original and reused. Each scale also has a unique URL
 * (`@@images/<field>-<width>-<hash>.<ext>`, the hash naming the original's blob and the size) that never changes
 * meaning, so it may be cached for good.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_ALLOWED_SIZES } from '@cms/shared';
import type { FileValue } from './files';

export interface ScaleSize {
  name: string;
  /** The box the scale fits in; 65536 means unbounded in that direction (as the original's settings write it). */
  width: number;
  height: number;
}

/** `name width:height` lines; malformed ones are skipped (the registry validates what it stores). */
export function parseSizes(lines: readonly string[]): ScaleSize[] {
  return lines.flatMap((line) => {
    const match = /^\s*([\w-]+)\s+(\d{1,5}):(\d{1,5})\s*$/.exec(line);
    if (!match) return [];
    const [, name, width, height] = match;
    return Number(width) > 0 && Number(height) > 0 ? [{ name, width: Number(width), height: Number(height) }] : [];
  });
}

export const DEFAULT_SIZES: readonly ScaleSize[] = parseSizes(DEFAULT_ALLOWED_SIZES);

/** The raster formats scales are made of; others (SVG) are served as they are. */
const OUTPUT: Readonly<Record<string, { format: 'jpeg' | 'png' | 'webp'; ext: string; type: string }>> = {
  'image/jpeg': { format: 'jpeg', ext: 'jpeg', type: 'image/jpeg' },
  'image/png': { format: 'png', ext: 'png', type: 'image/png' },
  'image/webp': { format: 'webp', ext: 'webp', type: 'image/webp' },
  // A GIF's scale is a PNG (one frame): what browsers show of it in a listing anyway.
  'image/gif': { format: 'png', ext: 'png', type: 'image/png' },
};

export function scalable(value: FileValue): boolean {
  return value.content_type in OUTPUT && (value.width ?? 0) > 0 && (value.height ?? 0) > 0;
}

export function outputOf(value: FileValue) {
  return OUTPUT[value.content_type];
}

/** The size of a scale: the original fitted in the box, never larger than the original itself. */
export function scaledSize(value: FileValue, size: ScaleSize): { width: number; height: number } {
  const width = value.width ?? 0;
  const height = value.height ?? 0;
  const ratio = Math.min(1, size.width / width, size.height / height);
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

/** Names the original's blob and the scale's size: a new image, or another size, gets another URL. */
export function scaleHash(value: FileValue, width: number, height: number): string {
  return createHash('sha256').update(`${value.blob_id}:${width}x${height}`).digest('hex').slice(0, 12);
}

/** The last segment of a scale's unique URL. */
export function scaleFile(field: string, value: FileValue, width: number, height: number): string {
  return `${field}-${width}-${scaleHash(value, width, height)}.${outputOf(value).ext}`;
}

/** The extension of an original's unique URL, by its media type; others have none (their URL is the field's). */
const ORIGINAL_EXT: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

/** Names the original's blob, apart from every scale's hash (a scale as large as the original is another file). */
export function originalHash(value: FileValue): string {
  return createHash('sha256').update(`${value.blob_id}:original`).digest('hex').slice(0, 12);
}

/**
 * The last segment of the original's unique URL (`<field>-<width>-<hash>.<ext>`, as the original platform's
 * `download`): a replaced image gets another, so no cache shows the old one. Null for a type without an extension.
 */
export function originalFile(field: string, value: FileValue): string | null {
  const ext = ORIGINAL_EXT[value.content_type];
  return ext ? `${field}-${value.width ?? 0}-${originalHash(value)}.${ext}` : null;
}

/** An image's `download`: its unique URL, or the field's where its type has none. */
export function imageDownload(value: FileValue, imagesUrl: string, field: string): string {
  const unique = originalFile(field, value);
  return unique ? `${imagesUrl}/${unique}` : `${imagesUrl}/${field}`;
}

/** `<field>-<width>-<hash>.<ext>` read back; null for anything else. */
export function parseScaleFile(segment: string): { field: string; width: number; hash: string } | null {
  const match = /^(.+)-(\d{1,5})-([0-9a-f]{12})\.(jpeg|png|webp|gif|svg)$/.exec(segment);
  return match ? { field: match[1], width: Number(match[2]), hash: match[3] } : null;
}

/** The `scales` member of a serialized image: every size, with its unique URL. */
export function scalesJson(value: FileValue, imagesUrl: string, field: string, sizes: readonly ScaleSize[]) {
  if (!scalable(value)) return {};
  return Object.fromEntries(
    sizes.map((size) => {
      const { width, height } = scaledSize(value, size);
      return [size.name, { download: `${imagesUrl}/${scaleFile(field, value, width, height)}`, height, width }];
    }),
  );
}

/**
 * The serialized form of an image field: the file's members, `download` its unique URL, and its `scales`. URLs are
 * under `imagesUrl`: the object's `@@images` in an object's answer, `@@images` (relative to the object) in the
 * catalog's `image_scales`.
 */
export function imageJson(value: FileValue, imagesUrl: string, field: string, sizes: readonly ScaleSize[]) {
  return {
    'content-type': value.content_type,
    download: imageDownload(value, imagesUrl, field),
    filename: value.filename,
    size: value.size,
    height: value.height ?? 0,
    scales: scalesJson(value, imagesUrl, field, sizes),
    width: value.width ?? 0,
  };
}

/** Makes the bytes of a scale (sharp, in store/). */
export interface ImageScaler {
  scale(original: Buffer, value: FileValue, width: number, height: number): Promise<Buffer>;
}

/** Scales already made, by original blob and size (store/). */
export interface ScaleStore {
  /** The blob of the scale of `source` at this size, if made. */
  find(source: string, width: number, height: number): Promise<string | null>;
  /** Records a new scale; when another request recorded one first, answers that one's blob (this one's is spare). */
  record(source: string, width: number, height: number, blob: string): Promise<string>;
  /** Forgets the scales of released originals; answers their blobs. */
  forget(sources: string[]): Promise<string[]>;
}
