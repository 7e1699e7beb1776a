import { request as httpRequest } from 'node:http';
import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png, upload } from '../support/images';

/**
 * The file hop (issue 16, item 3): `@@download` and `@@images` stream from content through the gateway with
 * `Range` (206, 416), `ETag` / `Last-Modified` and 304.
 */
describe('file downloads: ranges and validators', () => {
  let t: TestSuite;
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
  /** Every byte value, so that a wrong offset shows. */
  const BYTES = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) % 256));

  beforeAll(async () => {
    t = await startTestSuite();
    const file = await t.request('POST', '/', {
      body: { '@type': 'File', id: 'data', title: 'Data', file: upload(BYTES, 'data.bin', 'application/octet-stream') },
    });
    expect(file.status).toBe(201);
    const image = await t.request('POST', '/', {
      body: { '@type': 'Image', id: 'pic', title: 'Pic', image: upload(png(300, 200), 'pic.png', 'image/png') },
    });
    expect(image.status).toBe(201);
    // Files have no workflow: they follow their folder, and a new folder is private.
    await t.request('POST', '/', { body: { '@type': 'Folder', id: 'private', title: 'Private' } });
    const hidden = await t.request('POST', '/private', {
      body: { '@type': 'File', id: 'secret', file: upload(BYTES, 'secret.bin', 'application/octet-stream') },
    });
    expect(hidden.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => t.request('GET', path, { headers });

  it('answers the whole file with its validators and that it takes ranges', async () => {
    const response = await get('/data/@@download/file');
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(response.headers.get('last-modified') ?? '')).not.toBeNaN();
    expect(response.headers.get('content-length')).toBe('5000');
    expect((await bytesOf(response)).equals(BYTES)).toBe(true);
  });

  /** A raw GET (fetch sends no body with a GET): status, content type and bytes. */
  const rawGet = (path: string, body: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type: string; bytes: Buffer }>((resolve, reject) => {
      const url = new URL(path, t.suite.publicUrl);
      const req = httpRequest(url, {
        method: 'GET',
        headers: { Authorization: ADMIN, 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'] ?? '',
            bytes: Buffer.concat(chunks),
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });

  it('drops a body sent with the GET (after 100-continue too), and answers a very long path with JSON', async () => {
    for (const headers of [{ 'Content-Type': 'application/json' }, { Expect: '100-continue' }]) {
      const answer = await rawGet('/data/@@download/file', '{"title": "ignored"}', headers);
      expect(answer.status).toBe(200);
      expect(answer.bytes.equals(BYTES)).toBe(true);
    }
    const long = await rawGet(`/${'x'.repeat(11_000)}/@@download/file`, '');
    expect(long.status).toBe(404);
    expect(long.type).toMatch(/^application\/json/);
  });

  it('answers a range with 206 and exactly those bytes', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=4990-', 4990, 4999],
      ['bytes=-10', 4990, 4999],
      ['bytes=100-99999', 100, 4999],
    ];
    for (const [range, start, end] of cases) {
      const response = await get('/data/@@download/file', { Range: range });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/5000`);
      expect(response.headers.get('content-length')).toBe(String(end - start + 1));
      expect((await bytesOf(response)).equals(BYTES.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await get('/data/@@download/file', { Range: 'bytes=5000-' });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */5000');
  });

  it('answers several ranges or a malformed one with the whole file', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-3']) {
      const response = await get('/data/@@download/file', { Range: range });
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).length).toBe(5000);
    }
  });

  it('answers 304 to a matching If-None-Match or a current If-Modified-Since, and 200 otherwise', async () => {
    const first = await get('/data/@@download/file');
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    await first.arrayBuffer();

    const byTag = await get('/data/@@download/file', { 'If-None-Match': `"other", ${etag}` });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect((await bytesOf(byTag)).length).toBe(0);
    expect((await get('/data/@@download/file', { 'If-None-Match': 'W/' + etag })).status).toBe(304);
    expect((await get('/data/@@download/file', { 'If-Modified-Since': lastModified })).status).toBe(304);

    const stale = await get('/data/@@download/file', { 'If-None-Match': '"other"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const old = await get('/data/@@download/file', { 'If-Modified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' });
    expect(old.status).toBe(200);
    await old.arrayBuffer();
  });

  it('applies a range only to the version the client has (If-Range)', async () => {
    const etag = (await get('/data/@@download/file', { Range: 'bytes=0-0' })).headers.get('etag')!;
    expect((await get('/data/@@download/file', { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    const changed = await get('/data/@@download/file', { Range: 'bytes=0-9', 'If-Range': '"changed"' });
    expect(changed.status).toBe(200);
    expect((await bytesOf(changed)).length).toBe(5000);
  });

  it('a new file is a new ETag, so an old validator no longer matches', async () => {
    const before = (await get('/data/@@download/file')).headers.get('etag')!;
    const changed = Buffer.from('a new file');
    const patched = await t.request('PATCH', '/data', {
      body: { file: upload(changed, 'data.bin', 'application/octet-stream') },
    });
    expect(patched.status).toBe(204);
    const after = await get('/data/@@download/file', { 'If-None-Match': before });
    expect(after.status).toBe(200);
    expect((await bytesOf(after)).equals(changed)).toBe(true);
  });

  it('images and their scales have validators and ranges too', async () => {
    const original = await get('/pic/@@images/image');
    expect(original.status).toBe(200);
    const etag = original.headers.get('etag')!;
    await original.arrayBuffer();
    expect((await get('/pic/@@images/image', { 'If-None-Match': etag })).status).toBe(304);

    const scale = await get('/pic/@@images/image/thumb');
    expect(scale.status).toBe(200);
    const scaleTag = scale.headers.get('etag')!;
    expect(scaleTag).not.toBe(etag);
    const scaleBytes = await bytesOf(scale);
    const part = await get('/pic/@@images/image/thumb', { Range: 'bytes=0-7' });
    expect(part.status).toBe(206);
    expect((await bytesOf(part)).equals(scaleBytes.subarray(0, 8))).toBe(true);
    expect((await get('/pic/@@images/image/thumb', { 'If-None-Match': scaleTag })).status).toBe(304);
  });

  it('refuses anonymous callers a private file, with the error body, over the hop too', async () => {
    const response = await t.request('GET', '/private/secret/@@download/file', {
      auth: null,
      headers: { Range: 'bytes=0-9' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await response.json()).type).toBe('Unauthorized');
  });

  it('ignores a forwarded-request header a client sends itself', async () => {
    const forged = Buffer.from(
      JSON.stringify({
        context_path: ['private', 'secret'],
        endpoint: 'download',
        sub_path: ['file'],
        principal: { id: 'admin', roles: ['Manager'], groups: [], fullname: '' },
        public_url: 'http://x',
        request_id: 'r',
      }),
    ).toString('base64url');
    const response = await t.request('GET', '/private/secret/@@download/file', {
      auth: null,
      headers: { 'X-Cms-File-Request': forged },
    });
    expect(response.status).toBe(401);
  });
});
