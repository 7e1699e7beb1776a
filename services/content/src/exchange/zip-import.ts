/**
 * `@import`'s body: a ZIP of plone.exportimport's layout (what `@export` answers), sent as it is or, as
 * plone.exportimport's `@import` takes it, in the form field `file` of a `multipart/form-data` body. It is
 * received into a file (never held whole), its entries are checked from the central directory before one byte is
 * unpacked (paths that leave the folder, sizes past the limits, too many entries), and then unpacked entry by
 * entry into a folder that `PloneExport` reads as `npm run import` reads its folder. yauzl refuses an entry whose
 * bytes inflate past the size its header declares, so a bomb cannot pass by lying about its size.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, badRequest, clip, isMultipart } from '@cms/shared';
import * as yauzl from 'yauzl';
import { pathInside } from './plone-export';

export interface ZipLimits {
  /** Largest ZIP, as sent. */
  zipBytes: number;
  /** Largest sum of the entries' sizes, unpacked. */
  unpackedBytes: number;
  /** Largest entry, unpacked. */
  entryBytes: number;
  /**
   * Longest wait for the next bytes of the body (408 after it): shorter than the gateway's idle limit for the hop,
   * so that a client that stops sending is told so, rather than the gateway giving up on content.
   */
  bodyIdleMs: number;
}

/** Most entries a ZIP may hold (a site of this many objects and files is imported in parts). */
const MAX_ENTRIES = 500_000;
/** Room a form's boundaries and part headers take beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Most parts a form may have; plone.exportimport's has one. */
const MAX_FORM_PARTS = 16;
/** The form field that holds the ZIP (plone.exportimport's `@import`). */
export const ZIP_FIELD = 'file';
/** Media types a ZIP sent as the body itself may have (none is taken for one too). */
const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed', 'application/octet-stream']);

/** The ZIP's bytes within the received file. */
interface ByteRange {
  start: number;
  end: number;
}

/** Receives the request's ZIP under `dir` and unpacks it into `dir/export`, which it returns. */
export async function unpackUpload(req: IncomingMessage, dir: string, limits: ZipLimits): Promise<string> {
  const contentType = req.headers['content-type'];
  const form = isMultipart(contentType);
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!form && type !== '' && !ZIP_TYPES.has(type))
    throw new AppError(
      'UnsupportedMediaType',
      `Send the ZIP as application/zip, or in the form field "${ZIP_FIELD}" of multipart/form-data`,
    );
  const upload = join(dir, 'upload');
  const size = await receive(req, upload, limits.zipBytes + (form ? FORM_OVERHEAD_BYTES : 0), limits.bodyIdleMs);
  const range = form ? await formFileRange(upload, size, contentType ?? '') : { start: 0, end: size };
  if (range.end - range.start > limits.zipBytes) throw tooLarge(`The ZIP is larger than ${limits.zipBytes} bytes`);
  if (range.end === range.start) throw badRequest('No ZIP was sent: the body is empty');
  const tree = join(dir, 'export');
  await mkdir(tree);
  await checkEntries(upload, range, limits);
  await extract(upload, range, tree);
  return tree;
}

const tooLarge = (message: string) => new AppError('PayloadTooLarge', message);

/**
 * Writes the body to `file`; 413 as soon as it is (or says it is) longer than `maxBytes`, 408 when no byte comes
 * for `idleMs`. The request is then left unread rather than destroyed, so that the refusal can still be answered on
 * its connection. Returns its length.
 */
async function receive(req: IncomingMessage, file: string, maxBytes: number, idleMs: number): Promise<number> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes)
    throw tooLarge(`The body is larger than ${maxBytes} bytes`);
  let received = 0;
  const stalled = () =>
    counter.destroy(new AppError('RequestTimeout', `The body stopped coming: no byte for ${idleMs} ms`));
  let idle = setTimeout(stalled, idleMs);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      clearTimeout(idle);
      idle = setTimeout(stalled, idleMs);
      received += chunk.length;
      done(received > maxBytes ? tooLarge(`The body is larger than ${maxBytes} bytes`) : null, chunk);
    },
  });
  req.on('error', (error) => counter.destroy(error));
  req.pipe(counter);
  try {
    await pipeline(counter, createWriteStream(file));
  } finally {
    clearTimeout(idle);
  }
  return received;
}

/**
 * The bytes of the form field `file` in the multipart body saved in `file`, found by scanning for the boundary
 * (RFC 7578) a chunk at a time: the form is never parsed in memory.
 */
async function formFileRange(file: string, size: number, contentType: string): Promise<ByteRange> {
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  if (!boundary) throw badRequest('Malformed multipart/form-data body: no boundary');
  // Every delimiter is CRLF "--" boundary, but the first, which may open the body without its CRLF.
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const found: number[] = [];
  let carry = Buffer.from('\r\n');
  let offset = -2;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    const window = Buffer.concat([carry, chunk]);
    for (let at = window.indexOf(delimiter); at !== -1; at = window.indexOf(delimiter, at + delimiter.length)) {
      found.push(offset + at);
      if (found.length > MAX_FORM_PARTS + 1) throw badRequest(`The form has more than ${MAX_FORM_PARTS} parts`);
    }
    const keep = Math.min(window.length, delimiter.length - 1);
    offset += window.length - keep;
    carry = window.subarray(window.length - keep);
  }
  const handle = await open(file, 'r');
  try {
    for (let i = 0; i + 1 < found.length; i++) {
      const headerStart = found[i] + delimiter.length + 2;
      const head = Buffer.alloc(Math.min(8 * 1024, Math.max(0, found[i + 1] - headerStart)));
      await handle.read(head, 0, head.length, headerStart);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) throw badRequest('Malformed multipart/form-data body: a part without its headers');
      const disposition = /^content-disposition:[^\r\n]*;\s*name="([^"]*)"/im.exec(
        head.subarray(0, end).toString('latin1'),
      );
      if (disposition?.[1] === ZIP_FIELD) return { start: headerStart + end + 4, end: found[i + 1] };
    }
  } finally {
    await handle.close();
  }
  throw badRequest(`No file uploaded: send it in the form field "${ZIP_FIELD}"`);
}

/** A range of a file, as yauzl reads a ZIP. */
class FileRangeReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly file: string,
    private readonly range: ByteRange,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    return createReadStream(this.file, { start: this.range.start + start, end: this.range.start + end - 1 });
  }
}

async function openZip(file: string, range: ByteRange): Promise<yauzl.ZipFile> {
  try {
    const zip = await yauzl.fromRandomAccessReaderPromise(new FileRangeReader(file, range), range.end - range.start, {
      lazyEntries: true,
      decodeStrings: true,
      strictFileNames: true,
      validateEntrySizes: true,
      autoClose: false,
    });
    // An error while no entry is asked for has nothing to answer: the next request of one meets it.
    zip.on('error', () => undefined);
    if (zip.entryCount > MAX_ENTRIES) {
      zip.close();
      throw tooLarge(`The ZIP has more than ${MAX_ENTRIES} entries`);
    }
    return zip;
  } catch (error) {
    throw zipError(error);
  }
}

/** The entries of the central directory, one at a time. */
async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      const settled = () => zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      function onEntry(found: yauzl.Entry) {
        settled();
        resolve(found);
      }
      function onEnd() {
        settled();
        resolve(null);
      }
      function onError(error: Error) {
        settled();
        reject(zipError(error));
      }
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });
    if (!entry) return;
    yield entry;
  }
}

const isDirectory = (entry: yauzl.Entry) => entry.fileName.endsWith('/');

/** Every entry checked before any is unpacked: its name, that it can be read, and the sizes. */
async function checkEntries(file: string, range: ByteRange, limits: ZipLimits): Promise<void> {
  const zip = await openZip(file, range);
  try {
    let total = 0;
    for await (const entry of entriesOf(zip)) {
      if (isDirectory(entry)) continue;
      const name = clip(entry.fileName, 200);
      if (entry.isEncrypted()) throw badRequest(`The ZIP entry ${name} is encrypted`);
      if (!entry.canDecodeFileData()) throw badRequest(`The ZIP entry ${name} is compressed in a way not supported`);
      if (entry.uncompressedSize > limits.entryBytes)
        throw tooLarge(`The ZIP entry ${name} is larger than ${limits.entryBytes} bytes unpacked`);
      total += entry.uncompressedSize;
      if (total > limits.unpackedBytes)
        throw tooLarge(`The ZIP's entries are larger than ${limits.unpackedBytes} bytes unpacked`);
    }
  } finally {
    zip.close();
  }
}

/** Unpacks every entry under `tree`, one at a time. */
async function extract(file: string, range: ByteRange, tree: string): Promise<void> {
  const zip = await openZip(file, range);
  try {
    for await (const entry of entriesOf(zip)) {
      if (isDirectory(entry)) continue;
      const target = pathInside(tree, entry.fileName);
      if (!target) throw badRequest(`The ZIP entry ${clip(entry.fileName, 200)} leaves the export's folder`);
      try {
        await mkdir(dirname(target), { recursive: true });
        const bytes = await zip.openReadStreamPromise(entry);
        // `wx`: an entry named twice is refused, not written over.
        await pipeline(bytes, createWriteStream(target, { flags: 'wx' }));
      } catch (error) {
        throw zipError(error, entry.fileName);
      }
    }
  } finally {
    zip.close();
  }
}

/**
 * A problem of the ZIP as 400 with a bounded message. yauzl's own errors carry no `code`; the file system's do,
 * and of those only the ones a ZIP's names cause (a name used twice, or as a file and as a folder) are the
 * client's; anything else is this service's.
 */
function zipError(error: unknown, entry?: string): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  const name = entry === undefined ? '' : ` ${clip(entry, 200)}`;
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR')
    return badRequest(`The ZIP entry${name} is named twice, or as a file and as a folder`);
  if (code) return error;
  if (/^(absolute path|invalid relative path|invalid characters in fileName)/.test(message))
    return badRequest(
      `A ZIP entry's name leaves the export's folder, or is not a relative path: ${clip(message, 200)}`,
    );
  return badRequest(`Not a readable ZIP: ${clip(message, 200)}`);
}
