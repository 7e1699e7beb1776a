import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createLogger } from '@cms/shared';
import { openEmbeddedBlobStore } from '../src/store/blobs/embedded';
import type { BlobStore } from '../src/store/blobs/port';
import { BlobFileStorage } from '../src/store/blob-file-storage';
import { png, upload } from '../../../test/support/images';

describe('BlobFileStorage', () => {
  let dir: string;
  let blobs: BlobStore;
  let files: BlobFileStorage;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'file-storage-'));
    blobs = await openEmbeddedBlobStore(dir);
    files = new BlobFileStorage(blobs, 10_000, createLogger('test', 'silent'));
  });
  afterEach(async () => {
    await blobs.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('stores an upload in a blob and describes it', async () => {
    const bytes = Buffer.from('some bytes');
    const value = await files.ingest('file', 'file', upload(bytes, 'notes.txt', 'text/plain'));
    expect(value).toEqual({
      blob_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      filename: 'notes.txt',
      content_type: 'text/plain',
      size: bytes.length,
    });
    expect((await blobs.get(value.blob_id))?.equals(bytes)).toBe(true);
    expect((await files.read(value))?.equals(bytes)).toBe(true);
  });

  it('describes an image with its size', async () => {
    const value = await files.ingest('image', 'image', upload(png(8, 5), 'p.png', 'image/png'));
    expect(value).toMatchObject({ content_type: 'image/png', width: 8, height: 5, size: png(8, 5).length });
  });

  it('stores nothing when an upload is refused', async () => {
    await expect(files.ingest('file', 'file', upload(Buffer.alloc(10_001), 'big', 'x/y'))).rejects.toMatchObject({
      type: 'PayloadTooLarge',
    });
    await expect(
      files.ingest('image', 'image', upload(Buffer.from('text'), 'x.png', 'image/png')),
    ).rejects.toMatchObject({ type: 'BadRequest' });
    const shards = (await fs.readdir(dir)).filter((name) => name !== 'tmp');
    expect(shards).toEqual([]);
  });

  it('duplicates into a blob of its own, which outlives the original', async () => {
    const original = await files.ingest('file', 'file', upload(Buffer.from('twice'), 't.txt', 'text/plain'));
    const copy = await files.duplicate(original);
    expect(copy).toEqual({ ...original, blob_id: expect.any(String) });
    expect(copy.blob_id).not.toBe(original.blob_id);
    await files.release([original]);
    expect(await blobs.has(original.blob_id)).toBe(false);
    expect((await files.read(copy))?.toString()).toBe('twice');
  });

  it('refuses to duplicate a value whose blob is gone', async () => {
    const value = await files.ingest('file', 'file', upload(Buffer.from('x'), 'x', 'text/plain'));
    await blobs.delete(value.blob_id);
    await expect(files.duplicate(value)).rejects.toMatchObject({ type: 'InternalServerError' });
  });

  it('releases every blob given, and releasing again or a missing blob is not an error', async () => {
    const a = await files.ingest('file', 'file', upload(Buffer.from('a'), 'a', 'text/plain'));
    const b = await files.ingest('file', 'file', upload(Buffer.from('b'), 'b', 'text/plain'));
    await files.release([a, b, a]);
    expect(await blobs.has(a.blob_id)).toBe(false);
    expect(await blobs.has(b.blob_id)).toBe(false);
    await expect(files.release([a, b])).resolves.toBeUndefined();
    expect(await files.read(a)).toBeNull();
  });

  it('does not fail a release when the store does', async () => {
    const value = await files.ingest('file', 'file', upload(Buffer.from('a'), 'a', 'text/plain'));
    const failing = new BlobFileStorage(
      { ...blobs, delete: () => Promise.reject(new Error('disk gone')) } as BlobStore,
      10_000,
      createLogger('test', 'silent'),
    );
    await expect(failing.release([value])).resolves.toBeUndefined();
  });
});
