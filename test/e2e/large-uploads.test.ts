import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { upload } from '../support/images';

const MiB = 1024 * 1024;
/** Above the ~3.3 MB where the old base64 pattern overflowed the stack, below the default 20 MiB (cheaper). */
const MAX_UPLOAD_BYTES = 12 * MiB;
/** The default PORTRAIT_MAX_BYTES (5 MiB), left as it is. */
const PORTRAIT_MAX_BYTES = 5 * MiB;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A grey PNG of random pixels, stored uncompressed: about `width × height` bytes. */
function largePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  const rows = randomBytes((width + 1) * height);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter type: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads of several megabytes through the gateway: taken up to the limit, 413 above, 400 when not base64. */
describe('large uploads', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

  async function expectError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ type });
  }

  beforeAll(async () => {
    t = await startTestSuite({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('takes a 10 MB file and serves the same bytes', async () => {
    const bytes = randomBytes(10 * 1000 * 1000);
    const created = await t.request('POST', '/', {
      body: { '@type': 'File', id: 'big-file', file: upload(bytes, 'big.bin', 'application/octet-stream') },
    });
    expect(created.status).toBe(201);
    expect((await json(created)).file).toMatchObject({ size: bytes.length });
    const download = await t.request('GET', '/big-file/@@download/file');
    expect(download.status).toBe(200);
    expect((await bytesOf(download)).equals(bytes)).toBe(true);
  });

  it('takes a 10 MB image and serves the same bytes', async () => {
    const image = largePng(3200, 3200);
    expect(image.length).toBeGreaterThan(10 * 1000 * 1000);
    const created = await t.request('POST', '/', {
      body: { '@type': 'Image', id: 'big-image', image: upload(image, 'big.png', 'image/png') },
    });
    expect(created.status).toBe(201);
    expect((await json(created)).image).toMatchObject({ size: image.length, width: 3200, height: 3200 });
    const served = await t.request('GET', '/big-image/@@images/image');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await bytesOf(served)).equals(image)).toBe(true);
  });

  it('answers 413 one byte over MAX_UPLOAD_BYTES, and creates nothing', async () => {
    const response = await t.request('POST', '/', {
      body: {
        '@type': 'File',
        id: 'too-big',
        file: upload(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1), 'too-big.bin', 'application/octet-stream'),
      },
    });
    await expectError(response, 413, 'PayloadTooLarge');
    expect((await t.request('GET', '/too-big')).status).toBe(404);
  });

  it('answers 400 to megabytes that are not base64', async () => {
    const data = `${Buffer.alloc(4 * MiB, 2).toString('base64')}!AAA`;
    const response = await t.request('POST', '/', {
      body: { '@type': 'File', id: 'not-base64', file: { data, encoding: 'base64', filename: 'x.bin' } },
    });
    await expectError(response, 400, 'BadRequest');
    expect((await t.request('GET', '/not-base64')).status).toBe(404);
  });

  describe('a portrait', () => {
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const patchPortrait = (data: string) =>
      t.request('PATCH', '/@users/sitter', {
        body: { portrait: { 'content-type': 'image/png', data, encoding: 'base64', filename: 'me.png' } },
      });

    beforeAll(async () => {
      const created = await t.request('POST', '/@users', {
        body: { username: 'sitter', password: 'sitter-secret', email: 'sitter@example.com' },
      });
      expect(created.status).toBe(201);
    });

    it('of 4 MiB is taken (the limit is 5 MiB) and served as sent', async () => {
      const image = Buffer.concat([signature, randomBytes(4 * MiB)]);
      expect((await patchPortrait(image.toString('base64'))).status).toBe(204);
      const served = await t.request('GET', '/@portrait/sitter', { auth: null });
      expect(served.status).toBe(200);
      expect((await bytesOf(served)).equals(image)).toBe(true);
    });

    it('over PORTRAIT_MAX_BYTES answers 413', async () => {
      const image = Buffer.concat([signature, Buffer.alloc(PORTRAIT_MAX_BYTES, 3)]);
      await expectError(await patchPortrait(image.toString('base64')), 413, 'PayloadTooLarge');
    });

    it('of 4 MiB that is not base64 answers 400', async () => {
      const data = `${Buffer.concat([signature, Buffer.alloc(4 * MiB, 4)]).toString('base64')}!AAA`;
      await expectError(await patchPortrait(data), 400, 'BadRequest');
    });
  });
});
