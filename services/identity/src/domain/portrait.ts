import { AppError, badRequest, isBase64 } from '@cms/shared';

/** The write shape of addendum §8 (files and images), as sent in `PATCH @users/<id>`. */
export interface PortraitUpload {
  data: string;
  encoding: 'base64';
  filename?: string;
  'content-type': string;
  /** Asks the reference platform to scale the image; accepted, the image is kept as sent. */
  scale?: boolean;
}

export interface Portrait {
  contentType: string;
  filename: string;
  bytes: Buffer;
}

/** The image types a portrait may have, each recognised by its first bytes. */
const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export const PORTRAIT_TYPES = Object.keys(SIGNATURES);

/**
 * Checks an uploaded portrait: canonical base64 (no whitespace, no URL-safe
 * alphabet, correct padding), a supported image type whose signature the
 * bytes carry, and at most `maxBytes` decoded bytes (413 above).
 */
export function parsePortrait(upload: PortraitUpload, maxBytes: number): Portrait {
  const contentType = upload['content-type'].trim().toLowerCase();
  const check = SIGNATURES[contentType];
  if (!check) {
    throw badRequest(`A portrait must be one of ${PORTRAIT_TYPES.join(', ')}`, [
      { field: 'portrait.content-type', message: `unsupported media type "${upload['content-type']}"` },
    ]);
  }
  // Decoded size is known before decoding: refuse a too large upload without allocating it.
  const decodedLength = Math.floor((upload.data.length * 3) / 4);
  if (decodedLength - 2 > maxBytes) throw tooLarge(maxBytes);
  if (upload.data.length === 0 || !isBase64(upload.data)) {
    throw badRequest('The portrait data is not valid base64', [
      { field: 'portrait.data', message: 'not valid base64' },
    ]);
  }
  const bytes = Buffer.from(upload.data, 'base64');
  // Non-zero bits in the padding make a second spelling of the same bytes: not canonical.
  if (bytes.toString('base64') !== upload.data) {
    throw badRequest('The portrait data is not canonical base64', [
      { field: 'portrait.data', message: 'not valid base64' },
    ]);
  }
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  if (!check(bytes)) {
    throw badRequest(`The portrait data is not a ${contentType} image`, [
      { field: 'portrait.data', message: `content does not match ${contentType}` },
    ]);
  }
  return { contentType, filename: upload.filename ?? 'portrait', bytes };
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PayloadTooLarge', `A portrait may have at most ${maxBytes} bytes`, [
    { field: 'portrait.data', message: `larger than ${maxBytes} bytes` },
  ]);
}
