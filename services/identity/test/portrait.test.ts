import { AppError } from '@cms/shared';
import { parsePortrait, type PortraitUpload } from '../src/domain/portrait';

const SIGNATURES: Record<string, Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
};

const upload = (contentType: string, bytes: Buffer | string): PortraitUpload => ({
  'content-type': contentType,
  data: typeof bytes === 'string' ? bytes : bytes.toString('base64'),
  encoding: 'base64',
  filename: 'me.img',
});

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parsePortrait', () => {
  it.each(Object.keys(SIGNATURES))('accepts %s whose bytes carry its signature', (type) => {
    const portrait = parsePortrait(upload(type, SIGNATURES[type]), 1024);
    expect(portrait).toEqual({ contentType: type, filename: 'me.img', bytes: SIGNATURES[type] });
  });

  it('takes the media type case-insensitively and names a default file', () => {
    const { filename: _ignored, ...noName } = upload('Image/GIF', SIGNATURES['image/gif']);
    expect(parsePortrait(noName, 1024)).toMatchObject({ contentType: 'image/gif', filename: 'portrait' });
  });

  it('refuses bytes of another type than declared, and non-images', () => {
    expect(refusal(() => parsePortrait(upload('image/png', SIGNATURES['image/gif']), 1024)).errors).toEqual([
      { field: 'portrait.data', message: 'content does not match image/png' },
    ]);
    expect(refusal(() => parsePortrait(upload('image/jpeg', Buffer.from('<svg/>')), 1024)).type).toBe('BadRequest');
    const svg = refusal(() => parsePortrait(upload('image/svg+xml', Buffer.from('<svg/>')), 1024));
    expect(svg.errors?.[0].field).toBe('portrait.content-type');
  });

  it.each([
    ['empty', ''],
    ['characters outside the alphabet', 'R0lG!!=='],
    ['URL-safe alphabet', SIGNATURES['image/png'].toString('base64url')],
    ['missing padding', SIGNATURES['image/gif'].toString('base64').replace(/=+$/, '')],
    ['whitespace', `${SIGNATURES['image/gif'].toString('base64')}\n`],
    ['non-zero padding bits', 'R0lGODlhAR=='],
    ['a data URL', `data:image/gif;base64,${SIGNATURES['image/gif'].toString('base64')}`],
  ])('refuses malformed base64: %s', (_case, data) => {
    const error = refusal(() => parsePortrait(upload('image/gif', data), 1024));
    expect(error.type).toBe('BadRequest');
    expect(error.errors?.[0].field).toBe('portrait.data');
  });

  it('refuses more than the limit with 413, before decoding when the length tells', () => {
    const image = Buffer.concat([SIGNATURES['image/gif'], Buffer.alloc(100)]);
    expect(parsePortrait(upload('image/gif', image), image.length).bytes.length).toBe(image.length);
    expect(refusal(() => parsePortrait(upload('image/gif', image), image.length - 1)).type).toBe('PayloadTooLarge');
    expect(refusal(() => parsePortrait(upload('image/gif', 'A'.repeat(4000)), 1024)).type).toBe('PayloadTooLarge');
  });

  it('checks megabytes of base64 without running out of stack (a backtracking pattern did)', () => {
    const image = Buffer.concat([SIGNATURES['image/png'], Buffer.alloc(4 * 1024 * 1024, 0x5a)]);
    const limit = 5 * 1024 * 1024;
    expect(parsePortrait(upload('image/png', image), limit).bytes.equals(image)).toBe(true);
    const invalid = refusal(() => parsePortrait(upload('image/png', `${image.toString('base64')}!AAA`), limit));
    expect(invalid.type).toBe('BadRequest');
    expect(invalid.errors?.[0].field).toBe('portrait.data');
  });
});
