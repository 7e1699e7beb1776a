import { AppError } from '@cms/shared';
import { decodeUpload } from '../src/domain/files';
import { GIF, png, upload } from '../../../test/support/images';

const LIMIT = 1000;

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('decodeUpload', () => {
  it('decodes a file upload and keeps its name and media type', () => {
    const bytes = Buffer.from('%PDF-1.4 not really');
    const decoded = decodeUpload('file', 'file', upload(bytes, 'report.pdf', 'Application/PDF'), LIMIT);
    expect(decoded.bytes.equals(bytes)).toBe(true);
    expect(decoded).toMatchObject({ filename: 'report.pdf', content_type: 'application/pdf' });
    expect(decoded.width).toBeUndefined();
  });

  it('accepts base64 wrapped over several lines', () => {
    const bytes = Buffer.from('x'.repeat(200));
    const wrapped = bytes.toString('base64').replace(/(.{76})/g, '$1\r\n');
    const decoded = decodeUpload('file', 'file', { data: wrapped, encoding: 'base64', filename: 'a.txt' }, LIMIT);
    expect(decoded.bytes.equals(bytes)).toBe(true);
  });

  it('guesses the media type from the name when none is sent, and names a nameless upload after the field', () => {
    const data = Buffer.from('a,b').toString('base64');
    expect(decodeUpload('file', 'file', { data, encoding: 'base64', filename: 'T.CSV' }, LIMIT).content_type).toBe(
      'text/csv',
    );
    const nameless = decodeUpload('file', 'file', { data, encoding: 'base64' }, LIMIT);
    expect(nameless).toMatchObject({ filename: 'file', content_type: 'application/octet-stream' });
  });

  it('keeps only the last segment of a path-like file name, without control characters', () => {
    const data = Buffer.from('x').toString('base64');
    const decoded = decodeUpload(
      'file',
      'file',
      { data, encoding: 'base64', filename: 'C:\\fakepath\\evil\r\n.txt' },
      LIMIT,
    );
    expect(decoded.filename).toBe('evil.txt');
  });

  it('reads the width and height of an image, and takes its media type from the bytes', () => {
    const decoded = decodeUpload('image', 'image', upload(png(21, 13), 'p.png', 'image/jpeg'), LIMIT);
    expect(decoded).toMatchObject({ content_type: 'image/png', width: 21, height: 13, filename: 'p.png' });
    const gif = decodeUpload('image', 'image', upload(GIF, 'g.gif', 'image/gif'), LIMIT);
    expect(gif).toMatchObject({ content_type: 'image/gif', width: 1, height: 1 });
  });

  it('refuses bytes that are no image in an image field, naming the field', () => {
    for (const bytes of [Buffer.from('hello, world'), Buffer.alloc(0), Buffer.alloc(64)]) {
      const error = failure(() => decodeUpload('image', 'image', upload(bytes, 'x.png', 'image/png'), LIMIT));
      expect(error.httpStatus).toBe(400);
      expect(error.errors).toEqual([{ field: 'image.data', message: expect.stringContaining('not an image') }]);
    }
  });

  it.each([
    ['characters outside the alphabet', 'aGVsbG8*'],
    ['a length that is not a multiple of four', 'aGVsbG8'],
    ['padding in the middle', 'aG==bG8='],
    ['the URL-safe alphabet', 'a-_b'],
  ])('refuses data with %s', (_what, data) => {
    const error = failure(() => decodeUpload('file', 'file', { data, encoding: 'base64' }, LIMIT));
    expect(error.httpStatus).toBe(400);
    expect(error.errors).toEqual([{ field: 'file.data', message: 'not valid base64' }]);
  });

  it('refuses an upload that is not one, naming the member at fault', () => {
    const cases: [unknown, string][] = [
      [{ data: 'aGk=', encoding: 'utf8' }, 'file.encoding'],
      [{ data: 'aGk=' }, 'file.encoding'],
      [{ encoding: 'base64' }, 'file.data'],
      [{ data: 'aGk=', encoding: 'base64', 'content-type': 'text/plain\r\nX-Evil: 1' }, 'file.content-type'],
      [{ data: 'aGk=', encoding: 'base64', 'content-type': 'nonsense' }, 'file.content-type'],
      ['aGk=', 'file'],
    ];
    for (const [body, field] of cases) {
      const error = failure(() => decodeUpload('file', 'file', body, LIMIT));
      expect(error.httpStatus).toBe(400);
      expect(error.errors?.map((e) => e.field)).toEqual([field]);
    }
  });

  it('accepts media type parameters', () => {
    const data = Buffer.from('hi').toString('base64');
    const decoded = decodeUpload(
      'file',
      'file',
      { data, encoding: 'base64', 'content-type': 'Text/Plain; charset=utf-8' },
      LIMIT,
    );
    expect(decoded.content_type).toBe('text/plain; charset=utf-8');
  });

  it('takes exactly the limit and answers 413 one byte above it', () => {
    const at = Buffer.alloc(LIMIT, 1);
    expect(decodeUpload('file', 'file', upload(at, 'a.bin', 'application/octet-stream'), LIMIT).bytes.length).toBe(
      LIMIT,
    );
    for (const size of [LIMIT + 1, LIMIT + 2, LIMIT + 3, 10 * LIMIT]) {
      const error = failure(() =>
        decodeUpload('file', 'file', upload(Buffer.alloc(size, 1), 'a.bin', 'application/octet-stream'), LIMIT),
      );
      expect(error.type).toBe('PayloadTooLarge');
      expect(error.errors).toEqual([{ field: 'file.data', message: `larger than ${LIMIT} bytes` }]);
    }
  });

  it('checks megabytes of base64 without running out of stack (a backtracking pattern did)', () => {
    const size = 8 * 1024 * 1024;
    const bytes = Buffer.alloc(size, 0xa5);
    const decoded = decodeUpload('file', 'file', { data: bytes.toString('base64'), encoding: 'base64' }, size);
    expect(decoded.bytes.equals(bytes)).toBe(true);
    const invalid = failure(() =>
      decodeUpload('file', 'file', { data: `${bytes.toString('base64')}!AAA`, encoding: 'base64' }, 2 * size),
    );
    expect(invalid.httpStatus).toBe(400);
    expect(invalid.errors).toEqual([{ field: 'file.data', message: 'not valid base64' }]);
  });

  it('takes wrapped base64 of exactly the limit: line breaks do not count as data', () => {
    const bytes = Buffer.alloc(LIMIT * 100, 7);
    const wrapped = bytes.toString('base64').replace(/(.{76})/g, '$1\r\n');
    const decoded = decodeUpload('file', 'file', { data: wrapped, encoding: 'base64' }, bytes.length);
    expect(decoded.bytes.equals(bytes)).toBe(true);
  });

  it('answers 413 for a huge upload before looking at its characters', () => {
    const error = failure(() =>
      decodeUpload('file', 'file', { data: '*'.repeat(4 * LIMIT), encoding: 'base64' }, LIMIT),
    );
    expect(error.type).toBe('PayloadTooLarge');
  });
});
