import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { openEmbeddedBlobStore } from '../src/store/blobs/embedded';
import type { BlobStore } from '../src/store/blobs/port';
import { parseTusMetadata, TUS_EXPIRY_MS, TUS_MAX_PARTS, TusUploads, type TusUploadRecord } from '../src/domain/files';
import { png } from '../../../test/support/images';

/** Resumable uploads' records and chunks over the embedded store and blob store, on a clock of the test's. */
describe('TusUploads', () => {
  let dir: string;
  let store: DocumentStore;
  let blobs: BlobStore;
  let uploads: TusUploads;
  let now: Date;

  const source = (...pieces: string[]) =>
    (async function* () {
      for (const piece of pieces) yield Buffer.from(piece);
    })();
  const chunksOnDisk = async (record: TusUploadRecord) =>
    (await Promise.all(record.chunks.map((id) => blobs.has(id)))).filter(Boolean).length;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tus-uploads-'));
    store = await openEmbeddedStore(path.join(dir, 'store'));
    blobs = await openEmbeddedBlobStore(path.join(dir, 'blobs'));
    now = new Date('2026-01-01T12:00:00Z');
    uploads = new TusUploads(store.collection<TusUploadRecord>('tus_uploads'), blobs, 2000, () => now);
    await uploads.ensureIndexes();
  });
  afterEach(async () => {
    await blobs.close();
    await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('appends parts as chunks and assembles them into one blob of every byte', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 11, { filename: 'a.txt' });
    const first = await uploads.append(started, 0, source('hello', ' '), 6);
    const second = await uploads.append(first, 6, source('world'), 5);
    expect(second).toMatchObject({ offset: 11, chunks: [expect.any(String), expect.any(String)] });
    await uploads.claim(second);
    const value = await uploads.assemble(second, 'file', 'file');
    expect(value).toMatchObject({ filename: 'a.txt', content_type: 'text/plain', size: 11 });
    expect((await blobs.get(value.blob_id))?.toString()).toBe('hello world');
    await uploads.finish(second, value.blob_id);
    expect(await chunksOnDisk(second)).toBe(0);
    expect(await blobs.has(value.blob_id)).toBe(true);
    await expect(uploads.find(second._id, 'folder', 'editor')).rejects.toMatchObject({ type: 'NotFound' });
  });

  it('keeps the bytes that arrived before the source was cut, and the offset says so', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 10, {});
    const cut = (async function* () {
      yield Buffer.from('abcd');
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    })();
    const after = await uploads.append(started, 0, cut, 10);
    expect(after.offset).toBe(4);
    expect((await uploads.find(started._id, 'folder', 'editor')).offset).toBe(4);
  });

  it('refuses a wrong offset and bytes past the length, keeping nothing of them', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 4, {});
    await expect(uploads.append(started, 1, source('ab'), 2)).rejects.toMatchObject({ type: 'Conflict' });
    await expect(uploads.append(started, 0, source('abcde'), 5)).rejects.toMatchObject({ type: 'PayloadTooLarge' });
    // Without a declared length, found as the bytes arrive.
    await expect(uploads.append(started, 0, source('abc', 'de'), undefined)).rejects.toMatchObject({
      type: 'PayloadTooLarge',
    });
    const record = await uploads.find(started._id, 'folder', 'editor');
    expect(record).toMatchObject({ offset: 0, chunks: [] });
    expect(await fs.readdir(path.join(dir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('lets one of two appends at the same offset win; the other is 409 and its chunk is dropped', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 4, {});
    const results = await Promise.allSettled([
      uploads.append(started, 0, source('ab'), 2),
      uploads.append(started, 0, source('cd'), 2),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { type: 'Conflict' } });
    const record = await uploads.find(started._id, 'folder', 'editor');
    expect(record.offset).toBe(2);
    expect(record.chunks).toHaveLength(1);
    const shards = (await fs.readdir(path.join(dir, 'blobs'))).filter((name) => name !== 'tmp');
    const onDisk = (await Promise.all(shards.map((s) => fs.readdir(path.join(dir, 'blobs', s))))).flat();
    expect(onDisk).toEqual(record.chunks);
  });

  it('takes at most its number of parts, the last one bringing every byte left', async () => {
    const parts = 5;
    const few = new TusUploads(store.collection<TusUploadRecord>('tus_uploads'), blobs, 2000, () => now, parts);
    const length = parts + 5;
    let record = await few.start('folder', 'editor', 'create', length, {});
    for (let part = 0; part < parts - 1; part++) record = await few.append(record, part, source('x'), 1);
    await expect(few.append(record, record.offset, source('x'), 1)).rejects.toMatchObject({ type: 'BadRequest' });
    await expect(few.append(record, record.offset, source('xxxxxx'), undefined)).rejects.toMatchObject({
      type: 'BadRequest',
    });
    const done = await few.append(record, record.offset, source('xxxxxx'), 6);
    expect(done).toMatchObject({ offset: length });
    expect(done.chunks).toHaveLength(parts);
    expect(TUS_MAX_PARTS).toBe(1000);
  });

  it('lets one request complete an upload', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 2, {});
    const done = await uploads.append(started, 0, source('ab'), 2);
    await uploads.claim(done);
    await expect(uploads.claim(done)).rejects.toMatchObject({ type: 'Conflict' });
  });

  it('answers only its announcer, on the object it was announced on', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 2, {});
    await expect(uploads.find(started._id, 'folder', 'someone-else')).rejects.toMatchObject({ type: 'NotFound' });
    await expect(uploads.find(started._id, 'other-folder', 'editor')).rejects.toMatchObject({ type: 'NotFound' });
    await expect(uploads.find('../../etc', 'folder', 'editor')).rejects.toMatchObject({ type: 'NotFound' });
  });

  it('drops an upload that waited longer than its expiry, with its chunks', async () => {
    const started = await uploads.start('folder', 'editor', 'create', 4, {});
    const part = await uploads.append(started, 0, source('ab'), 2);
    now = new Date(now.getTime() + TUS_EXPIRY_MS - 1000);
    // A part moves the expiry on.
    const more = await uploads.append(part, 2, source('c'), 1);
    now = new Date(now.getTime() + TUS_EXPIRY_MS - 1000);
    expect((await uploads.find(started._id, 'folder', 'editor')).offset).toBe(3);
    now = new Date(now.getTime() + 2000);
    await expect(uploads.find(started._id, 'folder', 'editor')).rejects.toMatchObject({ type: 'NotFound' });
    expect(await chunksOnDisk(more)).toBe(0);
  });

  it('sweeps expired uploads when a new one is announced', async () => {
    const old = await uploads.start('folder', 'editor', 'create', 4, {});
    const part = await uploads.append(old, 0, source('ab'), 2);
    now = new Date(now.getTime() + TUS_EXPIRY_MS + 1);
    await uploads.start('folder', 'editor', 'create', 4, {});
    expect(await store.collection('tus_uploads').findOne({ _id: old._id })).toBeNull();
    expect(await chunksOnDisk(part)).toBe(0);
  });

  it('refuses to announce more than MAX_UPLOAD_BYTES', async () => {
    await expect(uploads.start('folder', 'editor', 'create', 2001, {})).rejects.toMatchObject({
      type: 'PayloadTooLarge',
    });
  });

  it('describes an assembled image by its bytes, and refuses bytes that are no image', async () => {
    const image = png(30, 20);
    const started = await uploads.start('folder', 'editor', 'create', image.length, { contentType: 'image/gif' });
    const first = await uploads.append(
      started,
      0,
      (async function* () {
        yield image.subarray(0, 10);
      })(),
      10,
    );
    const done = await uploads.append(
      first,
      10,
      (async function* () {
        yield image.subarray(10);
      })(),
      image.length - 10,
    );
    await uploads.claim(done);
    // The bytes decide an image's type, not the declared one.
    expect(await uploads.assemble(done, 'image', 'image')).toMatchObject({
      content_type: 'image/png',
      width: 30,
      height: 20,
      filename: 'image',
    });
    const fake = await uploads.start('folder', 'editor', 'create', 3, {});
    const fakeDone = await uploads.append(fake, 0, source('abc'), 3);
    await expect(uploads.assemble(fakeDone, 'image', 'image')).rejects.toMatchObject({ type: 'BadRequest' });
  });
});

describe('parseTusMetadata', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('reads the keys used, in any case, and tus-js-client’s filetype', () => {
    expect(
      parseTusMetadata(
        `filename ${b64('Report 2026.pdf')},Content-Type ${b64('application/pdf')},@type ${b64('File')}`,
      ),
    ).toEqual({ filename: 'Report 2026.pdf', contentType: 'application/pdf', type: 'File', field: undefined });
    expect(parseTusMetadata(`filetype ${b64('image/png')},relativePath,fieldname ${b64('image')}`)).toMatchObject({
      contentType: 'image/png',
      field: 'image',
    });
    expect(parseTusMetadata(undefined)).toEqual({});
  });

  it('refuses what is not `key base64`', () => {
    expect(() => parseTusMetadata('filename not!base64')).toThrow('Malformed Upload-Metadata');
    expect(() => parseTusMetadata('a b c')).toThrow('Malformed Upload-Metadata');
    expect(() => parseTusMetadata(`filename ${'A'.repeat(5000)}`)).toThrow('Malformed Upload-Metadata');
  });
});
