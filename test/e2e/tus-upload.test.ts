import { Agent, request as httpRequest } from 'node:http';
import { ADMIN, startTestSuite, type TestSuite } from '../support/embedded-suite';
import { png } from '../support/images';
import { blobsOnDisk } from '../support/blobs';

/** Small, so that a too large upload is cheap to announce; the images below fit. */
const MAX_UPLOAD_BYTES = 64 * 1024;
const TUS = { 'Tus-Resumable': '1.0.0' };
const OFFSET_STREAM = { 'Content-Type': 'application/offset+octet-stream' };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const metadata = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',');

/**
 * Resumable uploads (TUS 1.0.0, `@tus-upload` / `@tus-replace`): announced, sent in parts with the offset asked
 * between them, cut off mid-part and resumed, and made into a File or Image whose bytes are the ones sent. In both
 * identifier modes.
 */
describe.each([
  ['neutral names', {}],
  ['original identifiers', { ORIGINAL_IDENTIFIERS: 'true' }],
])('resumable uploads (%s)', (_mode, env: Record<string, string>) => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
  /** A path of the site from a URL the service answered. */
  const pathOf = (url: string) => new URL(url).pathname;

  async function announce(
    container: string,
    length: number,
    meta: Record<string, string>,
    endpoint = '@tus-upload',
  ): Promise<string> {
    const response = await t.request('POST', `${container}/${endpoint}`, {
      headers: { ...TUS, 'Upload-Length': String(length), 'Upload-Metadata': metadata(meta) },
    });
    if (response.status !== 201) throw new Error(`announce: ${response.status} ${await response.text()}`);
    expect(response.headers.get('tus-resumable')).toBe('1.0.0');
    expect(response.headers.get('upload-expires')).toBeTruthy();
    return pathOf(response.headers.get('location')!);
  }

  function patch(location: string, offset: number, bytes: Buffer, headers: Record<string, string> = {}) {
    return fetch(t.url(location), {
      method: 'PATCH',
      headers: { Authorization: ADMIN, ...TUS, ...OFFSET_STREAM, 'Upload-Offset': String(offset), ...headers },
      body: bytes,
    });
  }

  async function offsetOf(location: string): Promise<number> {
    const response = await t.request('HEAD', location, { headers: TUS });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return Number(response.headers.get('upload-offset'));
  }

  /**
   * Sends the first `sent` bytes of a PATCH announcing all of `bytes` (Content-Length), then cuts the connection, as
   * a client losing its network does.
   */
  function cutPatch(location: string, offset: number, bytes: Buffer, sent: number): Promise<void> {
    return new Promise((resolve) => {
      const request = httpRequest(t.url(location), {
        method: 'PATCH',
        headers: {
          Authorization: ADMIN,
          ...TUS,
          ...OFFSET_STREAM,
          'Upload-Offset': String(offset),
          'Content-Length': String(bytes.length),
        },
      });
      request.on('error', () => resolve());
      request.on('close', () => resolve());
      request.write(bytes.subarray(0, sent), () => setImmediate(() => request.destroy()));
    });
  }

  beforeAll(async () => {
    t = await startTestSuite({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), ...env });
    const folder = await t.request('POST', '/', { body: { '@type': 'Folder', id: 'uploads', title: 'Uploads' } });
    expect(folder.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers OPTIONS with the protocol it speaks', async () => {
    const response = await t.request('OPTIONS', '/uploads/@tus-upload');
    expect(response.status).toBe(204);
    expect(response.headers.get('tus-version')).toBe('1.0.0');
    expect(response.headers.get('tus-resumable')).toBe('1.0.0');
    expect(response.headers.get('tus-extension')).toBe('creation,expiration');
    expect(response.headers.get('tus-max-size')).toBe(String(MAX_UPLOAD_BYTES));
  });

  it('takes an image in three parts with HEADs between, and makes an Image of those bytes with its scales', async () => {
    const image = png(120, 80, 3);
    const location = await announce('/uploads', image.length, { filename: 'photo.png', 'content-type': 'image/png' });
    expect(location).toMatch(/^\/uploads\/@tus-upload\/[0-9a-f]{32}$/);
    expect(await offsetOf(location)).toBe(0);

    const cuts = [0, Math.floor(image.length / 3), Math.floor((2 * image.length) / 3), image.length];
    let created: string | null = null;
    for (let i = 0; i < 3; i++) {
      // The client asks where to go on before each part, as a client does after an interruption.
      const offset = await offsetOf(location);
      expect(offset).toBe(cuts[i]);
      const response = await patch(location, offset, image.subarray(cuts[i], cuts[i + 1]));
      expect(response.status).toBe(204);
      expect(response.headers.get('upload-offset')).toBe(String(cuts[i + 1]));
      created = response.headers.get('location');
      if (i < 2) expect(created).toBeNull();
    }
    expect(created).toBe(t.suite.publicUrl + '/uploads/photo.png');

    const object = await json(await t.request('GET', '/uploads/photo.png'));
    expect(object['@type']).toBe('Image');
    expect(object.image).toMatchObject({ 'content-type': 'image/png', size: image.length, width: 120, height: 80 });
    expect(Object.keys(object.image.scales).length).toBeGreaterThan(0);
    const served = await t.request('GET', '/uploads/photo.png/@@images/image');
    expect(served.status).toBe(200);
    expect((await bytesOf(served)).equals(image)).toBe(true);
    const thumb = object.image.scales.thumb as { download: string; width: number };
    const scale = await t.request('GET', pathOf(thumb.download));
    expect(scale.status).toBe(200);
    expect(scale.headers.get('content-type')).toMatch(/^image\//);
    expect((await bytesOf(scale)).length).toBeGreaterThan(0);

    // The upload is used up: its chunks are gone, and so is its address.
    expect((await t.request('HEAD', location, { headers: TUS })).status).toBe(404);
  });

  it('keeps what arrived before a connection was cut, and resumes from the offset HEAD tells', async () => {
    const bytes = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 31 + 7) % 256));
    const location = await announce('/uploads', bytes.length, { filename: 'data.bin' });
    const first = await patch(location, 0, bytes.subarray(0, 10_000));
    expect(first.status).toBe(204);

    await cutPatch(location, 10_000, bytes.subarray(10_000), 15_000);

    // Resume as a TUS client does: ask the offset, send the rest from there; a part that lands meanwhile (the cut
    // request's bytes committed after the HEAD) makes the offset stale: 409, then ask again.
    let location2: string | null = null;
    for (let attempt = 0; attempt < 20 && !location2; attempt++) {
      const offset = await offsetOf(location);
      expect(offset).toBeGreaterThanOrEqual(10_000);
      expect(offset).toBeLessThanOrEqual(25_000);
      const response = await patch(location, offset, bytes.subarray(offset));
      if (response.status === 409) continue;
      expect(response.status).toBe(204);
      expect(response.headers.get('upload-offset')).toBe(String(bytes.length));
      location2 = response.headers.get('location');
    }
    expect(location2).toBe(t.suite.publicUrl + '/uploads/data.bin');
    const object = await json(await t.request('GET', '/uploads/data.bin'));
    expect(object['@type']).toBe('File');
    expect(object.file).toMatchObject({ filename: 'data.bin', 'content-type': 'application/octet-stream' });
    const download = await t.request('GET', '/uploads/data.bin/@@download/file');
    expect((await bytesOf(download)).equals(bytes)).toBe(true);
  });

  it('replaces the file of an object through @tus-replace', async () => {
    const created = await t.request('POST', '/uploads', {
      body: {
        '@type': 'File',
        id: 'report',
        file: { data: b64('old text'), encoding: 'base64', filename: 'old.txt', 'content-type': 'text/plain' },
      },
    });
    expect(created.status).toBe(201);
    const text = Buffer.from('the new report, sent resumably');
    const location = await announce(
      '/uploads/report',
      text.length,
      { filename: 'new.txt', 'content-type': 'text/plain' },
      '@tus-replace',
    );
    expect(location).toMatch(/^\/uploads\/report\/@tus-upload\/[0-9a-f]{32}$/);
    const response = await patch(location, 0, text);
    expect(response.status).toBe(204);
    expect(response.headers.get('location')).toBe(t.suite.publicUrl + '/uploads/report');
    const object = await json(await t.request('GET', '/uploads/report'));
    expect(object.file).toMatchObject({ filename: 'new.txt', size: text.length });
    const download = await t.request('GET', '/uploads/report/@@download/file');
    expect((await bytesOf(download)).equals(text)).toBe(true);
    // A Folder has no file to replace.
    const refused = await t.request('POST', '/uploads/@tus-replace', {
      headers: { ...TUS, 'Upload-Length': '4', 'Upload-Metadata': metadata({ filename: 'x.txt' }) },
    });
    expect(refused.status).toBe(400);
  });

  describe('refuses what is wrong, changing nothing', () => {
    it('412 without the protocol version, naming the one spoken', async () => {
      const response = await t.request('POST', '/uploads/@tus-upload', { headers: { 'Upload-Length': '4' } });
      expect(response.status).toBe(412);
      expect(response.headers.get('tus-version')).toBe('1.0.0');
      const other = await t.request('POST', '/uploads/@tus-upload', {
        headers: { 'Tus-Resumable': '0.2.2', 'Upload-Length': '4' },
      });
      expect(other.status).toBe(412);
      const location = await announce('/uploads', 4, { filename: 'v.txt' });
      const head = await t.request('HEAD', location);
      expect(head.status).toBe(412);
      const patched = await fetch(t.url(location), {
        method: 'PATCH',
        headers: { Authorization: ADMIN, ...OFFSET_STREAM, 'Upload-Offset': '0' },
        body: 'abcd',
      });
      expect(patched.status).toBe(412);
      expect(await offsetOf(location)).toBe(0);
    });

    it('400 for a missing or bad Upload-Length or Upload-Metadata, 413 above MAX_UPLOAD_BYTES', async () => {
      const post = (headers: Record<string, string>) =>
        t.request('POST', '/uploads/@tus-upload', { headers: { ...TUS, ...headers } });
      expect((await post({})).status).toBe(400);
      expect((await post({ 'Upload-Length': '-1' })).status).toBe(400);
      expect((await post({ 'Upload-Length': 'many' })).status).toBe(400);
      expect((await post({ 'Upload-Length': '4', 'Upload-Metadata': 'filename not!base64' })).status).toBe(400);
      const large = await post({ 'Upload-Length': String(MAX_UPLOAD_BYTES + 1) });
      expect(large.status).toBe(413);
      expect(await json(large)).toMatchObject({ type: 'PayloadTooLarge' });
      // A type that cannot be added here is refused before a byte is sent.
      expect((await post({ 'Upload-Length': '4', 'Upload-Metadata': metadata({ '@type': 'Nothing' }) })).status).toBe(
        400,
      );
    });

    it('409 for a wrong offset, 413 for bytes past the announced length, 400 for a wrong Content-Type', async () => {
      const location = await announce('/uploads', 8, { filename: 'eight.txt', 'content-type': 'text/plain' });
      expect((await patch(location, 0, Buffer.from('abc'))).status).toBe(204);
      const wrong = await patch(location, 0, Buffer.from('abc'));
      expect(wrong.status).toBe(409);
      expect(wrong.headers.get('tus-resumable')).toBe('1.0.0');
      expect(await json(wrong)).toMatchObject({ type: 'Conflict' });
      const ahead = await patch(location, 5, Buffer.from('abc'));
      expect(ahead.status).toBe(409);
      const tooMuch = await patch(location, 3, Buffer.from('defghijk'));
      expect(tooMuch.status).toBe(413);
      const notStream = await patch(location, 3, Buffer.from('de'), { 'Content-Type': 'text/plain' });
      expect(notStream.status).toBe(400);
      const noOffset = await fetch(t.url(location), {
        method: 'PATCH',
        headers: { Authorization: ADMIN, ...TUS, ...OFFSET_STREAM },
        body: 'de',
      });
      expect(noOffset.status).toBe(400);
      expect(await offsetOf(location)).toBe(3);
      // Then the right part still completes it.
      const done = await patch(location, 3, Buffer.from('defgh'));
      expect(done.status).toBe(204);
      expect(done.headers.get('location')).toBe(t.suite.publicUrl + '/uploads/eight.txt');
    });

    it('404 for an unknown upload, another user’s, or one announced on another folder', async () => {
      const unknown = await t.request('HEAD', '/uploads/@tus-upload/0123456789abcdef0123456789abcdef', {
        headers: TUS,
      });
      expect(unknown.status).toBe(404);
      expect((await patch('/uploads/@tus-upload/not-an-id', 0, Buffer.from('x'))).status).toBe(404);
      const location = await announce('/uploads', 4, { filename: 'mine.txt' });
      const id = location.split('/').pop();
      expect((await t.request('HEAD', `/@tus-upload/${id}`, { headers: TUS })).status).toBe(404);
      // Anonymous callers may not even view the (private) folder.
      expect((await t.request('HEAD', location, { headers: TUS, auth: null })).status).toBe(401);
      // Anonymous callers may not announce uploads.
      const anonymous = await t.request('POST', '/uploads/@tus-upload', {
        headers: { ...TUS, 'Upload-Length': '4' },
        auth: null,
      });
      expect(anonymous.status).toBe(401);
    });

    it('a part refused before its body has all come does not stall the next request on the connection', async () => {
      // One connection, kept alive, as a client's agent keeps it: a refused part's unread bytes must not be taken
      // for the next request's start, nor hold it back.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string, path: string, body?: Buffer) =>
        new Promise<number>((resolve, reject) => {
          const request = httpRequest(t.url(path), {
            method,
            agent,
            headers: {
              Authorization: ADMIN,
              ...TUS,
              ...OFFSET_STREAM,
              'Upload-Offset': '0',
              ...(body ? { 'Content-Length': String(body.length) } : {}),
            },
          });
          request.setTimeout(15_000, () => request.destroy(new Error(`${method} ${path}: no answer`)));
          request.on('error', reject);
          request.on('response', (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          });
          request.end(body);
        });
      try {
        expect(
          await send('PATCH', '/uploads/@tus-upload/0123456789abcdef0123456789abcdef', Buffer.alloc(4 << 20)),
        ).toBe(404);
        expect(await send('GET', '/uploads')).toBe(200);
      } finally {
        agent.destroy();
      }
    });

    it('400 when an Image upload is not an image, and the upload and its bytes are gone', async () => {
      const before = blobsOnDisk(t.dataDir);
      const bytes = Buffer.from('this is not a picture at all');
      const location = await announce('/uploads', bytes.length, { filename: 'fake.png', 'content-type': 'image/png' });
      expect((await patch(location, 0, bytes.subarray(0, 10))).status).toBe(204);
      const last = await patch(location, 10, bytes.subarray(10));
      expect(last.status).toBe(400);
      expect((await t.request('GET', '/uploads/fake.png')).status).toBe(404);
      expect((await t.request('HEAD', location, { headers: TUS })).status).toBe(404);
      expect(blobsOnDisk(t.dataDir)).toEqual(before);
    });
  });
});

/** With CORS on, a browser's TUS client may send and read the protocol's headers. */
describe('resumable uploads from a browser (CORS)', () => {
  const ORIGIN = 'http://volto.example:3000';
  let t: TestSuite;

  beforeAll(async () => {
    t = await startTestSuite({ CORS_ALLOW_ORIGINS: ORIGIN });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('allows the TUS request headers in a preflight and exposes the answer headers', async () => {
    const preflight = await fetch(t.url('/@tus-upload'), {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'tus-resumable,upload-offset,upload-length,upload-metadata',
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const name of ['tus-resumable', 'upload-offset', 'upload-length', 'upload-metadata', 'lock-token']) {
      expect(allowed).toContain(name);
    }

    const announced = await t.request('POST', '/@tus-upload', {
      headers: { Origin: ORIGIN, ...TUS, 'Upload-Length': '3', 'Upload-Metadata': metadata({ filename: 'c.txt' }) },
    });
    expect(announced.status).toBe(201);
    expect(announced.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const exposed = (announced.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of [
      'location',
      'upload-offset',
      'upload-length',
      'tus-resumable',
      'tus-version',
      'upload-expires',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('still answers a TUS client’s own OPTIONS (not a preflight) with the protocol', async () => {
    const response = await t.request('OPTIONS', '/@tus-upload', { headers: { Origin: ORIGIN } });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('tus-version')).toBe('1.0.0');
    expect(response.headers.get('tus-extension')).toBe('creation,expiration');
  });
});
