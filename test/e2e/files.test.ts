import { startTestSuite, type TestSuite } from '../support/embedded-suite';
import { GIF, png, upload } from '../support/images';
import { blobsOnDisk } from '../support/blobs';

/** A small limit, so that a too large upload is cheap to send. */
const LIMIT = 4096;

/** Files and images through the gateway: uploads in the JSON body, the download views, and the blobs behind them. */
describe('files and images', () => {
  let t: TestSuite;
  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const url = (path: string) => t.suite.publicUrl + path;
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

  /** Runs a write and returns the blobs it added and removed. */
  async function blobChanges(write: () => Promise<unknown>): Promise<{ added: string[]; removed: string[] }> {
    const before = blobsOnDisk(t.dataDir);
    await write();
    const after = blobsOnDisk(t.dataDir);
    return {
      added: [...after].filter((id) => !before.has(id)),
      removed: [...before].filter((id) => !after.has(id)),
    };
  }

  async function create(container: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await t.request('POST', container, { body });
    if (response.status !== 201) throw new Error(`POST ${container}: ${response.status} ${await response.text()}`);
    return json(response);
  }

  /** Every byte value, so that any re-encoding on the way shows. */
  const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 31 + 7) % 256));
  const PNG = png(21, 13);

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '300', MAX_UPLOAD_BYTES: String(LIMIT) });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('a File', () => {
    let added: string[];

    beforeAll(async () => {
      ({ added } = await blobChanges(() =>
        create('/', {
          '@type': 'File',
          id: 'report',
          title: 'Report',
          file: upload(BINARY, 'Résumé (final).pdf', 'application/pdf'),
        }),
      ));
    });

    it('stores the upload in one blob and serializes the field', async () => {
      expect(added).toHaveLength(1);
      const body = await json(await t.request('GET', '/report'));
      expect(body.file).toEqual({
        'content-type': 'application/pdf',
        download: url('/report/@@download/file'),
        filename: 'Résumé (final).pdf',
        size: BINARY.length,
      });
    });

    it('serves the same bytes as an attachment at @@download/file', async () => {
      const response = await t.request('GET', '/report/@@download/file');
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(BINARY)).toBe(true);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-length')).toBe(String(BINARY.length));
      expect(response.headers.get('content-disposition')).toBe(
        "attachment; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29.pdf",
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('serves the primary field without a field name, and accepts a file name after the field', async () => {
      for (const path of ['/report/@@download', '/report/@@download/file/anything.pdf', '/report/@download/file']) {
        const response = await t.request('GET', path);
        expect(response.status).toBe(200);
        expect((await bytesOf(response)).equals(BINARY)).toBe(true);
      }
    });

    it('answers HEAD with the headers and no body', async () => {
      const response = await t.request('HEAD', '/report/@@download/file');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(BINARY.length));
      expect((await bytesOf(response)).length).toBe(0);
    });

    it('answers 404 for a field that holds no file, and for @@images of a file field', async () => {
      for (const path of [
        '/report/@@download/title',
        '/report/@@download/nothing',
        '/report/@@images/file',
        '/report/@@images',
      ]) {
        const response = await t.request('GET', path);
        expect(response.status).toBe(404);
        expect((await json(response)).type).toBe('NotFound');
      }
    });

    it('replaces the file with a PATCH and releases the old blob', async () => {
      const replacement = Buffer.from('the second version');
      const changes = await blobChanges(async () => {
        const response = await t.request('PATCH', '/report', {
          body: { file: upload(replacement, 'v2.txt', 'text/plain') },
        });
        expect(response.status).toBe(204);
      });
      expect(changes.removed).toEqual(added);
      expect(changes.added).toHaveLength(1);
      const download = await t.request('GET', '/report/@@download/file');
      expect((await bytesOf(download)).equals(replacement)).toBe(true);
      expect(download.headers.get('content-type')).toBe('text/plain');
      expect((await json(await t.request('GET', '/report'))).file).toMatchObject({ filename: 'v2.txt', size: 18 });
      added = changes.added;
    });

    it('keeps the blob when a PATCH changes other fields only', async () => {
      const changes = await blobChanges(async () => {
        expect((await t.request('PATCH', '/report', { body: { title: 'Renamed report' } })).status).toBe(204);
      });
      expect(changes).toEqual({ added: [], removed: [] });
      expect((await t.request('GET', '/report/@@download/file')).status).toBe(200);
    });
  });

  describe('an Image', () => {
    beforeAll(async () => {
      await create('/', {
        '@type': 'Image',
        id: 'picture',
        title: 'Picture',
        image: upload(PNG, 'p.png', 'image/png'),
      });
    });

    it('serializes the image with its width and height, and a unique URL per scale', async () => {
      const body = await json(await t.request('GET', '/picture'));
      expect(body.image).toEqual({
        'content-type': 'image/png',
        // The original's unique URL (a replaced image gets another), as the original platform's `download`.
        download: expect.stringMatching(new RegExp(`^${url('/picture/@@images/image-')}\\d+-[0-9a-f]{12}\\.png$`)),
        filename: 'p.png',
        height: 13,
        scales: expect.any(Object),
        size: PNG.length,
        width: 21,
      });
      const scales = body.image.scales as Record<string, { download: string; width: number; height: number }>;
      expect(Object.keys(scales)).toEqual([
        'huge',
        'great',
        'larger',
        'large',
        'teaser',
        'preview',
        'mini',
        'thumb',
        'tile',
        'icon',
        'listing',
      ]);
      // Never wider than the original; fitted in the box, proportions kept.
      expect(scales.huge).toMatchObject({ width: 21, height: 13 });
      expect(scales.icon).toMatchObject({ width: 21, height: 13 });
      expect(scales.listing).toMatchObject({ width: 16, height: 10 });
      expect(scales.listing.download).toMatch(new RegExp(`^${url('/picture/@@images/image-16-')}[0-9a-f]{12}\\.png$`));
    });

    it('makes a scale on first request, keeps it, and serves it at its unique URL for good', async () => {
      // 800 × 400: larger than the preview box (400), within this suite's upload limit.
      const big = png(800, 400, 3);
      await create('/', { '@type': 'Image', id: 'wide', title: 'Wide', image: upload(big, 'w.png', 'image/png') });
      const scales = (await json(await t.request('GET', '/wide'))).image.scales;
      expect(scales.preview).toMatchObject({ width: 400, height: 200 });
      expect(scales.thumb).toMatchObject({ width: 128, height: 64 });
      const pngSize = (bytes: Buffer) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

      const made = await blobChanges(async () => {
        const unique = await t.request('GET', scales.preview.download.slice(t.suite.publicUrl.length));
        expect(unique.status).toBe(200);
        expect(unique.headers.get('content-type')).toBe('image/png');
        expect(unique.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(pngSize(await bytesOf(unique))).toEqual([400, 200]);
      });
      expect(made.added).toHaveLength(1);
      const again = await blobChanges(async () => {
        const named = await t.request('GET', '/wide/@@images/image/preview');
        expect(named.status).toBe(200);
        expect(named.headers.get('cache-control')).toBe('no-cache');
        expect(pngSize(await bytesOf(named))).toEqual([400, 200]);
      });
      expect(again).toEqual({ added: [], removed: [] });
      expect(pngSize(await bytesOf(await t.request('GET', '/wide/@@images/image/thumb')))).toEqual([128, 64]);

      // A new image: new unique URLs; the old ones name nothing; the old scales go with the old original.
      const replaced = await blobChanges(async () => {
        const square = upload(png(420, 420, 4), 'n.png', 'image/png');
        expect((await t.request('PATCH', '/wide', { body: { image: square } })).status).toBe(204);
      });
      expect(replaced.removed).toHaveLength(3);
      expect((await t.request('GET', scales.preview.download.slice(t.suite.publicUrl.length))).status).toBe(404);
      expect((await json(await t.request('GET', '/wide'))).image.scales.preview).toMatchObject({
        width: 400,
        height: 400,
      });
    });

    it('refuses an image too large to decode (a small file may claim a huge size)', async () => {
      // A PNG whose header claims 20,000 × 20,000 pixels.
      const claimed = Buffer.from(PNG);
      claimed.writeUInt32BE(20_000, 16);
      claimed.writeUInt32BE(20_000, 20);
      const response = await t.request('POST', '/', {
        body: { '@type': 'Image', id: 'bomb', image: upload(claimed, 'bomb.png', 'image/png') },
      });
      expect(response.status).toBe(400);
      expect((await json(response)).message).toMatch(/too large to decode/);
    });

    it('answers 404 for a scale name the imaging settings do not have', async () => {
      const response = await t.request('GET', '/picture/@@images/image/enormous');
      expect(response.status).toBe(404);
      expect((await json(response)).message).toMatch(/No scale named "enormous"/);
    });

    it('serves the original inline at @@images/image (and at @@images), as an attachment at @@download', async () => {
      for (const path of ['/picture/@@images/image', '/picture/@@images']) {
        const response = await t.request('GET', path);
        expect(response.status).toBe(200);
        expect((await bytesOf(response)).equals(PNG)).toBe(true);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(response.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''p.png");
      }
      const download = await t.request('GET', '/picture/@@download/image');
      expect((await bytesOf(download)).equals(PNG)).toBe(true);
      expect(download.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''p.png");
    });

    it('refuses bytes that are not an image, and stores nothing', async () => {
      const changes = await blobChanges(async () => {
        const response = await t.request('POST', '/', {
          body: {
            '@type': 'Image',
            id: 'not-a-picture',
            image: upload(Buffer.from('plain text'), 'x.png', 'image/png'),
          },
        });
        expect(response.status).toBe(400);
        expect((await json(response)).errors).toEqual([{ field: 'image.data', message: expect.any(String) }]);
      });
      expect(changes).toEqual({ added: [], removed: [] });
      expect((await t.request('GET', '/not-a-picture')).status).toBe(404);
    });

    it('refuses to clear the image of an Image (it is required)', async () => {
      const response = await t.request('PATCH', '/picture', { body: { image: null } });
      expect(response.status).toBe(400);
      expect((await t.request('GET', '/picture/@@images/image')).status).toBe(200);
    });
  });

  describe('a News Item lead image', () => {
    it('is uploaded, serialized and served like an Image', async () => {
      await create('/', {
        '@type': 'News Item',
        id: 'news',
        title: 'News',
        image: upload(GIF, 'lead.gif', 'image/gif'),
        image_caption: 'A lead image',
      });
      const body = await json(await t.request('GET', '/news'));
      expect(body.image).toMatchObject({
        'content-type': 'image/gif',
        download: expect.stringMatching(new RegExp(`^${url('/news/@@images/image-1-')}[0-9a-f]{12}\\.gif$`)),
        width: 1,
        height: 1,
        size: GIF.length,
      });
      expect(body.image_caption).toBe('A lead image');
      const response = await t.request('GET', '/news/@@images/image');
      expect((await bytesOf(response)).equals(GIF)).toBe(true);
      // A News Item has no primary file field: the field must be named.
      expect((await t.request('GET', '/news/@@download')).status).toBe(404);
    });

    it('is cleared with null; its blob stays while a version of the News Item refers to it', async () => {
      const changes = await blobChanges(async () => {
        expect((await t.request('PATCH', '/news', { body: { image: null } })).status).toBe(204);
      });
      // News Items are versioned: the versions before this edit still show that image.
      expect(changes.removed).toEqual([]);
      expect(changes.added).toEqual([]);
      expect((await json(await t.request('GET', '/news'))).image).toBeNull();
      expect((await t.request('GET', '/news/@@images/image')).status).toBe(404);
    });

    it('of an object without versions is released when cleared', async () => {
      await create('/', {
        '@type': 'News Item',
        id: 'unversioned',
        title: 'Unversioned',
        versioning_enabled: false,
        image: upload(PNG, 'u.png', 'image/png'),
      });
      const changes = await blobChanges(async () => {
        expect((await t.request('PATCH', '/unversioned', { body: { image: null } })).status).toBe(204);
      });
      expect(changes.removed).toHaveLength(1);
      expect(changes.added).toEqual([]);
    });
  });

  describe('deletion', () => {
    it('releases the blobs of the object and of everything below it, after the delete', async () => {
      const created = await blobChanges(async () => {
        await create('/', { '@type': 'Folder', id: 'doomed', title: 'Doomed' });
        await create('/doomed', { '@type': 'File', id: 'f', file: upload(Buffer.from('f'), 'f.txt', 'text/plain') });
        await create('/doomed', { '@type': 'Folder', id: 'sub', title: 'Sub' });
        await create('/doomed/sub', { '@type': 'Image', id: 'i', image: upload(PNG, 'i.png', 'image/png') });
      });
      expect(created.added).toHaveLength(2);
      const removed = await blobChanges(async () => {
        expect((await t.request('DELETE', '/doomed')).status).toBe(204);
      });
      expect(removed.removed.sort()).toEqual(created.added.sort());
      expect((await t.request('GET', '/doomed/f/@@download/file')).status).toBe(404);
    });

    it('releases the blobs of every version of a versioned object', async () => {
      const created = await blobChanges(async () => {
        await create('/', {
          '@type': 'News Item',
          id: 'versioned-news',
          title: 'Versioned',
          image: upload(PNG, 'a.png', 'image/png'),
        });
        expect(
          (await t.request('PATCH', '/versioned-news', { body: { image: upload(PNG, 'b.png', 'image/png') } })).status,
        ).toBe(204);
      });
      expect(created.added).toHaveLength(2);
      expect(created.removed).toEqual([]);
      const removed = await blobChanges(async () => {
        expect((await t.request('DELETE', '/versioned-news')).status).toBe(204);
      });
      expect(removed.removed.sort()).toEqual(created.added.sort());
    });

    it('releases a single file object', async () => {
      const created = await blobChanges(() =>
        create('/', { '@type': 'File', id: 'single', file: upload(Buffer.from('s'), 's.txt', 'text/plain') }),
      );
      const removed = await blobChanges(async () => {
        expect((await t.request('DELETE', '/single')).status).toBe(204);
      });
      expect(removed.removed).toEqual(created.added);
    });
  });

  describe('@copy', () => {
    it('gives the copy blobs of its own, which outlive the original', async () => {
      await create('/', { '@type': 'Folder', id: 'copies', title: 'Copies' });
      await create('/', { '@type': 'File', id: 'original', file: upload(BINARY, 'o.bin', 'application/octet-stream') });
      const copied = await blobChanges(async () => {
        const response = await t.request('POST', '/copies/@copy', { body: { source: url('/original') } });
        expect(response.status).toBe(200);
      });
      expect(copied.added).toHaveLength(1);
      expect((await t.request('DELETE', '/original')).status).toBe(204);
      const response = await t.request('GET', '/copies/original/@@download/file');
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(BINARY)).toBe(true);
    });
  });

  describe('refused uploads', () => {
    it('answers 413 over MAX_UPLOAD_BYTES and changes nothing', async () => {
      const changes = await blobChanges(async () => {
        const response = await t.request('POST', '/', {
          body: { '@type': 'File', id: 'too-big', file: upload(Buffer.alloc(LIMIT + 1), 'big.bin', 'x/y') },
        });
        expect(response.status).toBe(413);
        const body = await json(response);
        expect(body.type).toBe('PayloadTooLarge');
        expect(body.errors).toEqual([{ field: 'file.data', message: `larger than ${LIMIT} bytes` }]);
      });
      expect(changes).toEqual({ added: [], removed: [] });
      expect((await t.request('GET', '/too-big')).status).toBe(404);
    });

    it('answers 413 to a PATCH over the limit and keeps the file', async () => {
      await create('/', { '@type': 'File', id: 'kept', file: upload(Buffer.from('kept'), 'k.txt', 'text/plain') });
      const changes = await blobChanges(async () => {
        const response = await t.request('PATCH', '/kept', {
          body: { title: 'Changed', file: upload(Buffer.alloc(LIMIT * 2), 'big.bin', 'x/y') },
        });
        expect(response.status).toBe(413);
      });
      expect(changes).toEqual({ added: [], removed: [] });
      const body = await json(await t.request('GET', '/kept'));
      expect(body.title).not.toBe('Changed');
      expect((await bytesOf(await t.request('GET', '/kept/@@download/file'))).toString()).toBe('kept');
    });

    it.each([
      ['bad base64', { data: 'not*base64', encoding: 'base64', filename: 'x.txt' }, 'file.data'],
      ['a wrong encoding', { data: 'aGk=', encoding: 'utf-8', filename: 'x.txt' }, 'file.encoding'],
    ])('answers 400 naming the member for %s, and creates nothing', async (_what, file, field) => {
      const changes = await blobChanges(async () => {
        const response = await t.request('POST', '/', { body: { '@type': 'File', id: 'refused', file } });
        expect(response.status).toBe(400);
        expect((await json(response)).errors.map((e: { field: string }) => e.field)).toContain(field);
      });
      expect(changes).toEqual({ added: [], removed: [] });
      expect((await t.request('GET', '/refused')).status).toBe(404);
    });
  });

  describe('permissions', () => {
    beforeAll(async () => {
      await create('/', { '@type': 'Folder', id: 'private-folder', title: 'Private' });
      await create('/private-folder', {
        '@type': 'File',
        id: 'secret',
        file: upload(Buffer.from('secret'), 's.txt', 'text/plain'),
      });
      await create('/', { '@type': 'Folder', id: 'public-folder', title: 'Public' });
      expect((await t.request('POST', '/public-folder/@workflow/publish')).status).toBe(200);
      await create('/public-folder', { '@type': 'Image', id: 'open', image: upload(PNG, 'o.png', 'image/png') });
    });

    // A File or Image has no workflow of its own: it follows its container's state (acquired_state).
    it('refuses anonymous callers a file in a private folder, and follows the folder when it is published', async () => {
      for (const path of ['/private-folder/secret', '/private-folder/secret/@@download/file']) {
        const response = await t.request('GET', path, { auth: null });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
      }
      const anonymousSearch = async () =>
        (
          (await (
            await t.request('GET', '/@search?portal_type=File&path.query=/private-folder', { auth: null })
          ).json()) as {
            items_total: number;
          }
        ).items_total;
      expect(await anonymousSearch()).toBe(0);

      expect((await t.request('POST', '/private-folder/@workflow/publish')).status).toBe(200);
      expect((await t.request('GET', '/private-folder/secret/@@download/file', { auth: null })).status).toBe(200);
      expect(await anonymousSearch()).toBe(1);

      expect((await t.request('POST', '/private-folder/@workflow/retract')).status).toBe(200);
      expect((await t.request('GET', '/private-folder/secret', { auth: null })).status).toBe(401);
      expect(await anonymousSearch()).toBe(0);
    });

    it('serves anonymous callers an image in a published folder', async () => {
      const response = await t.request('GET', '/public-folder/open/@@images/image', { auth: null });
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(PNG)).toBe(true);
    });

    it('answers 404 for an object that does not exist', async () => {
      expect((await t.request('GET', '/nowhere/@@download/file')).status).toBe(404);
    });
  });
});
