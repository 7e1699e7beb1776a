/**
 * The embedded adapter of the blob store port: one file per blob under a
 * folder, `<dir>/<first two hex digits>/<id>`. A blob is written to a temporary
 * name in `<dir>/tmp`, flushed to disk and then renamed, so a crash never
 * leaves a partial file under a blob's name.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@cms/shared';
import { isBlobId, type BlobStore, type ByteRange } from './port';

/** Temporary files older than this at start are left over from a crash (younger ones may be another writer's). */
const STALE_TEMP_MS = 60 * 60 * 1000;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** Makes a rename durable: the directory entry is flushed too (not every platform allows opening a folder). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort: the file's own bytes are already on disk.
  } finally {
    await handle?.close();
  }
}

class EmbeddedBlobStore implements BlobStore {
  readonly kind = 'embedded' as const;

  constructor(private readonly dir: string) {}

  private get tempDir(): string {
    return path.join(this.dir, 'tmp');
  }

  private fileOf(id: string): string {
    return path.join(this.dir, id.slice(0, 2), id);
  }

  put(bytes: Buffer): Promise<string> {
    return this.write([bytes]);
  }

  async write(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<string> {
    const id = randomUUID().replace(/-/g, '');
    const temp = path.join(this.tempDir, `${id}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      // `writeFile` on a handle writes all of each piece at the current position (a `write` may be partial).
      for await (const piece of source) await handle.writeFile(piece);
      await handle.sync();
    } catch (err) {
      await handle.close();
      await fs.rm(temp, { force: true });
      throw err;
    }
    await handle.close();
    const target = this.fileOf(id);
    try {
      await fs.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    await syncDirectory(path.dirname(target));
    return id;
  }

  async get(id: string): Promise<Buffer | null> {
    if (!isBlobId(id)) return null;
    try {
      return await fs.readFile(this.fileOf(id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async open(id: string, range?: ByteRange): Promise<Readable | null> {
    if (!isBlobId(id)) return null;
    // Opened before the stream is handed out, so a missing blob is null rather than a stream error.
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.fileOf(id), 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    // The stream closes the handle when it ends or is destroyed.
    return handle.createReadStream({ start: range?.start, end: range?.end });
  }

  async has(id: string): Promise<boolean> {
    if (!isBlobId(id)) return false;
    try {
      await fs.access(this.fileOf(id));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!isBlobId(id)) return false;
    try {
      await fs.unlink(this.fileOf(id));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async ping(): Promise<void> {
    await fs.access(this.tempDir, fsConstants.R_OK | fsConstants.W_OK);
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }

  /** Removes what crashed writers left in the temporary folder. */
  async sweepTemporaryFiles(now = Date.now()): Promise<void> {
    for (const name of await fs.readdir(this.tempDir)) {
      const file = path.join(this.tempDir, name);
      try {
        const { mtimeMs } = await fs.stat(file);
        if (now - mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    }
  }
}

/** Opens (creating it if needed) the blob folder `dir`. */
export async function openEmbeddedBlobStore(dir: string): Promise<BlobStore> {
  const store = new EmbeddedBlobStore(path.resolve(dir));
  await makePrivateDir(dir);
  await makePrivateDir(path.join(dir, 'tmp'));
  await store.sweepTemporaryFiles();
  return store;
}
