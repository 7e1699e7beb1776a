/**
 * The rules of one upload to a file or image field (addendum §8:
 * `{data, encoding: "base64", filename, content-type}`): what is accepted,
 * how large it may be, and what an image's type and size are.
 */
import { AppError, badRequest, isBase64, validationError } from '@cms/shared';
import { imageSize } from 'image-size';
import { z } from 'zod';
import type { FileKind } from './files';

/** An upload checked and decoded, ready to be stored. */
export interface DecodedUpload {
  bytes: Buffer;
  filename: string;
  content_type: string;
  width?: number;
  height?: number;
}

const TOKEN = "[\\w!#$&^.+'-]+";
/** `type/subtype` with optional `; name=value` parameters; nothing that could break a header. */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\x00-\\x1f\\x7f]*"))*$`);

const uploadSchema = z.object({
  data: z.string(),
  encoding: z.literal('base64', { errorMap: () => ({ message: 'only "base64" is supported' }) }),
  filename: z.string().max(1000).nullish(),
  'content-type': z.string().max(255).regex(MEDIA_TYPE, 'not a media type (type/subtype)').nullish(),
});

/** Line breaks of wrapped base64 (and other whitespace): removed before the check. */
const WHITESPACE = /\s+/g;

/**
 * Image formats recognised by their bytes, with the media type they are served as. TGA is left out: its
 * "signature" is four zero bytes, which too many non-images have.
 */
const IMAGE_TYPES: Record<string, string> = {
  avif: 'image/avif',
  bmp: 'image/bmp',
  cur: 'image/x-icon',
  dds: 'image/vnd-ms.dds',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  icns: 'image/icns',
  ico: 'image/vnd.microsoft.icon',
  j2c: 'image/j2c',
  jp2: 'image/jp2',
  jpg: 'image/jpeg',
  jxl: 'image/jxl',
  'jxl-stream': 'image/jxl',
  ktx: 'image/ktx',
  png: 'image/png',
  pnm: 'image/x-portable-anymap',
  psd: 'image/vnd.adobe.photoshop',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

/** Media types guessed from a file name when the upload names none. */
const BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  gif: 'image/gif',
  htm: 'text/html',
  html: 'text/html',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  json: 'application/json',
  md: 'text/markdown',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  odt: 'application/vnd.oasis.opendocument.text',
  pdf: 'application/pdf',
  png: 'image/png',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  webp: 'image/webp',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xml: 'application/xml',
  zip: 'application/zip',
};

const OCTET_STREAM = 'application/octet-stream';

/**
 * Checks and decodes one upload to `field`: 400 naming the member at fault (`<field>.data`, ...) when it is
 * not an upload, not base64, or (for an image field) not an image; 413 when it decodes to more than
 * `maxBytes` bytes, found before anything is decoded.
 */
export function decodeUpload(kind: FileKind, field: string, upload: unknown, maxBytes: number): DecodedUpload {
  const parsed = uploadSchema.safeParse(upload);
  if (!parsed.success) {
    // Name the members inside the field: `image.encoding`, not `encoding`.
    throw validationError(
      new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }))),
    );
  }
  const { data, filename, 'content-type': declared } = parsed.data;

  // The decoded size is known from the length (line breaks not counted): a too large upload is refused before
  // its characters are checked or decoded.
  const base64 = data.replace(WHITESPACE, '');
  if (Math.floor((base64.length * 3) / 4) - 2 > maxBytes) throw tooLarge(field, maxBytes);
  if (!isBase64(base64)) {
    throw badRequest(`The data of "${field}" is not valid base64`, [
      { field: `${field}.data`, message: 'not valid base64' },
    ]);
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > maxBytes) throw tooLarge(field, maxBytes);

  const name = cleanFilename(filename) ?? field;
  if (kind === 'file') {
    return { bytes, filename: name, content_type: normalizeMediaType(declared) ?? guessMediaType(name) };
  }
  const image = sniffImage(bytes);
  if (!image) {
    throw badRequest(`The data of "${field}" is not an image`, [
      { field: `${field}.data`, message: 'not an image of a known format' },
    ]);
  }
  if (image.width * image.height > MAX_IMAGE_PIXELS) {
    throw badRequest(`The image of "${field}" is too large to decode (at most ${MAX_IMAGE_PIXELS} pixels)`, [
      { field: `${field}.data`, message: `more than ${MAX_IMAGE_PIXELS} pixels` },
    ]);
  }
  // The bytes decide the media type: an image is shown inline, so a declared type must not make it something else.
  return { bytes, filename: name, content_type: image.contentType, width: image.width, height: image.height };
}

/**
 * What a file stored already (a resumable upload, assembled in the blob store) is, from its name, the media type its
 * client declared and its first bytes (an image's header; `head` is at most a few hundred KiB): as `decodeUpload`
 * judges an upload, 400 when an image field is given something that is not an image.
 */
export function describeStored(
  kind: FileKind,
  field: string,
  filename: string | undefined,
  declared: string | undefined,
  head: Buffer,
): Omit<DecodedUpload, 'bytes'> {
  const name = cleanFilename(filename) ?? field;
  const type = declared && MEDIA_TYPE.test(declared) ? normalizeMediaType(declared) : undefined;
  if (kind === 'file') return { filename: name, content_type: type ?? guessMediaType(name) };
  const image = sniffImage(head);
  if (!image) {
    throw badRequest(`The upload for "${field}" is not an image`, [
      { field, message: 'not an image of a known format' },
    ]);
  }
  if (image.width * image.height > MAX_IMAGE_PIXELS) {
    throw badRequest(`The image of "${field}" is too large to decode (at most ${MAX_IMAGE_PIXELS} pixels)`, [
      { field, message: `more than ${MAX_IMAGE_PIXELS} pixels` },
    ]);
  }
  return { filename: name, content_type: image.contentType, width: image.width, height: image.height };
}

/** The most pixels an image may have: its scales are made from the decoded image (a small file can be huge). */
export const MAX_IMAGE_PIXELS = 100_000_000;

function tooLarge(field: string, maxBytes: number): AppError {
  return new AppError('PayloadTooLarge', `An upload may have at most ${maxBytes} bytes`, [
    { field: `${field}.data`, message: `larger than ${maxBytes} bytes` },
  ]);
}

function sniffImage(bytes: Buffer): { contentType: string; width: number; height: number } | null {
  if (bytes.length === 0) return null;
  try {
    const { type, width, height } = imageSize(bytes);
    const contentType = type ? IMAGE_TYPES[type] : undefined;
    if (!contentType || !(width > 0) || !(height > 0)) return null;
    return { contentType, width, height };
  } catch {
    // image-size throws on anything it does not recognise or cannot read.
    return null;
  }
}

/** The last segment of what browsers send (some send `C:\fakepath\name`), without control characters. */
function cleanFilename(filename: string | null | undefined): string | undefined {
  const name = filename
    ?.split(/[\\/]/)
    .pop()
    // eslint-disable-next-line no-control-regex
    ?.replace(/[\x00-\x1f\x7f]/g, '')
    .trim();
  return name ? name : undefined;
}

/** `Application/PDF` is `application/pdf`; parameters are kept as sent. */
function normalizeMediaType(value: string | null | undefined): string | undefined {
  return value ? value.replace(/^[^;]+/, (essence) => essence.trim().toLowerCase()) : undefined;
}

function guessMediaType(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return (dot > 0 && BY_EXTENSION[filename.slice(dot + 1).toLowerCase()]) || OCTET_STREAM;
}
