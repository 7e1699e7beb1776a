/**
 * The file of one embedded collection: an append-only log of records, one JSON
 * line each, in NeDB's format (a document replaces the one with its `_id`,
 * `{$$deleted, _id}` removes it, `$$indexCreated`/`$$indexRemoved` define the
 * indexes), so data directories written by NeDB open as they are.
 *
 * Writes are group-committed: the records queued while one batch is written
 * and fsynced go out together in the next batch, so concurrent writers share
 * one fsync instead of queueing for their own. A record is acknowledged only
 * once its batch is on disk. The file stays open between batches, but its path
 * is checked before each one: a file that was moved away or replaced is opened
 * anew by its path rather than taking the writes somewhere no restart reads.
 *
 * Compaction never blocks the event loop for long: a snapshot of the live
 * documents (the owner's immutable objects) is written to `<file>~` a slice at a
 * time while batches go on being appended to the live file and are kept as the
 * snapshot's tail; between two batches, the tail is appended to the new file,
 * which is fsynced and renamed over the live one.
 */
import { constants as fsConstants, createReadStream, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Document } from '../../../ports/store';
import { PRIVATE_FILE_MODE } from '../../../store/private-files';

/** An index as NeDB records it in the file (`$$indexCreated`). */
export interface IndexDefinition {
  fieldName: string;
  unique?: boolean;
  sparse?: boolean;
  [option: string]: unknown;
}

/** What the owner holds in memory: the live documents (never mutated once stored) and the indexes. */
export interface Snapshot {
  docs: Document[];
  indexes: IndexDefinition[];
}

export interface LoadedLog extends Snapshot {
  /** Complete lines in the file. */
  records: number;
  /** Lines that did not parse (a torn last line is dropped from the file and not counted). */
  corrupt: number;
}

/** Over this share of corrupt lines the file is refused, as NeDB did, rather than load a fraction of it. */
const CORRUPT_ALERT_THRESHOLD = 0.1;
/** Appended records, beyond those a rewrite leaves, that trigger a compaction (the file grows to about twice its live size). */
const COMPACTION_MIN_RECORDS = 1000;
/** Longest slice of serialisation between two writes of a compaction (the event loop runs in between). */
const SLICE_MS = 8;
const READ_CHUNK_BYTES = 1 << 20;
/** The buffer a compaction encodes its records into, a slice at a time. */
const SNAPSHOT_BUFFER_BYTES = 1 << 20;

/** Appending, each write durable (data and the size that reaches it) before it returns: one call where two were. */
const APPEND_DSYNC = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT | fsConstants.O_DSYNC;

const nedbModel = createRequire(__filename)('@seald-io/nedb/lib/model.js') as {
  serialize(doc: unknown): string;
  deserialize(line: string): Document;
};

/** One line of the file for a stored document (Dates as `{$$date}`, as NeDB writes them). */
export function documentRecord(doc: Document): string {
  // NeDB's serialisation runs a replacer on every key, which keeps V8 off its fast JSON path; it only changes
  // Dates (its key checks were made when the document was stored), so a document without one is plain JSON.
  return holdsDate(doc) ? nedbModel.serialize(doc) : JSON.stringify(doc);
}

/** Whether a value holds anything NeDB serialises as a date (what has a `getTime` method), at any depth. */
function holdsDate(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof (value as { getTime?: unknown }).getTime === 'function') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsDate(item)) return true;
    return false;
  }
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && holdsDate((value as Record<string, unknown>)[key])) {
      return true;
    }
  }
  return false;
}

export function deletionRecord(id: unknown): string {
  return JSON.stringify({ $$deleted: true, _id: id });
}

export function indexCreatedRecord(index: IndexDefinition): string {
  return JSON.stringify({ $$indexCreated: index });
}

export function indexRemovedRecord(fieldName: string): string {
  return JSON.stringify({ $$indexRemoved: fieldName });
}

function parseLine(line: string): Document {
  // NeDB's reviver turns `{$$date}` into Dates; most lines have none and parse much faster without it.
  return line.includes('"$$date"') ? nedbModel.deserialize(line) : (JSON.parse(line) as Document);
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Reads the records of `filename` (none when it does not exist) and replays them. A last line without its
 * newline was torn by a crash mid-append: it is ignored and cut from the file, so the next append starts a
 * line of its own.
 */
export async function readLog(filename: string): Promise<LoadedLog> {
  const byId = new Map<unknown, Document>();
  const indexes = new Map<string, IndexDefinition>();
  let records = 0;
  let corrupt = 0;
  /** The bytes after the last newline read so far (a line not complete yet). */
  let carry: Buffer = Buffer.alloc(0);
  /** Bytes of the complete lines read so far. */
  let complete = 0;
  const replay = (line: string): void => {
    if (line === '') return;
    records += 1;
    let doc: Document & { $$deleted?: unknown; $$indexCreated?: IndexDefinition; $$indexRemoved?: unknown };
    try {
      doc = parseLine(line);
    } catch {
      corrupt += 1;
      return;
    }
    if (doc === null || typeof doc !== 'object') corrupt += 1;
    else if (doc._id) {
      if (doc.$$deleted === true) byId.delete(doc._id);
      else byId.set(doc._id, doc);
    } else if (doc.$$indexCreated && doc.$$indexCreated.fieldName != null) {
      indexes.set(doc.$$indexCreated.fieldName, doc.$$indexCreated);
    } else if (typeof doc.$$indexRemoved === 'string') indexes.delete(doc.$$indexRemoved);
  };
  try {
    // Chunk by chunk, so that loading a large file lets the event loop run in between.
    for await (const chunk of createReadStream(filename, { highWaterMark: READ_CHUNK_BYTES })) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      const end = bytes.lastIndexOf(10) + 1;
      if (end > 0) {
        for (const line of bytes.toString('utf8', 0, end).split('\n')) replay(line);
        complete += end;
      }
      carry = bytes.subarray(end);
    }
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  if (carry.length > 0) {
    const last = carry.toString('utf8');
    let whole = true;
    try {
      parseLine(last);
    } catch {
      whole = false;
    }
    if (whole) {
      // A complete record without its newline: kept, and terminated so that the next append is a line of its own.
      replay(last);
      await fs.appendFile(filename, '\n');
    } else {
      await fs.truncate(filename, complete);
    }
  }
  if (records > 0 && corrupt / records > CORRUPT_ALERT_THRESHOLD && corrupt > 1) {
    throw new Error(
      `${filename}: ${corrupt} of ${records} lines are corrupt, more than ${CORRUPT_ALERT_THRESHOLD * 100}%; refusing to load a part of it`,
    );
  }
  return { docs: [...byId.values()], indexes: [...indexes.values()], records, corrupt };
}

interface Waiter {
  lines: string[];
  resolve(): void;
  reject(err: unknown): void;
}

interface CompactionState {
  /** Batches committed to the live file since the snapshot was taken. */
  tail: Buffer[];
  aborted?: unknown;
}

export interface AppendLogOptions {
  /** The live documents and indexes, taken at one point between two writes. */
  snapshot(): Promise<Snapshot>;
  /**
   * A batch failed: every record not yet on disk is rejected, and so is every record appended until `recover`
   * is called. The owner undoes in memory what those records described, then calls `recover`.
   */
  onFailure(err: unknown): void;
}

export class AppendLog {
  private queue: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  /** Set from a failed batch until the owner has undone it (`recover`). */
  private failure: { err: unknown } | undefined;
  /** The file may end with a part of a failed batch: rewritten from memory before anything else is appended. */
  private needsRewrite = false;
  private compaction: { state: CompactionState; done: Promise<void> } | undefined;
  /** The compaction's last step, run by the flush loop between two batches. */
  private swap: (() => Promise<void>) | undefined;
  private appendedSinceRewrite: number;
  private recordsAtRewrite: number;
  private closing = false;
  /** The file batches are appended to, kept open between them, and which file (device, inode) that is. */
  private live: { handle: fs.FileHandle; ino: number; dev: number } | undefined;

  constructor(
    readonly filename: string,
    loaded: Pick<LoadedLog, 'records' | 'docs' | 'indexes'>,
    private readonly options: AppendLogOptions,
  ) {
    this.recordsAtRewrite = loaded.docs.length + loaded.indexes.length;
    this.appendedSinceRewrite = loaded.records - this.recordsAtRewrite;
  }

  /**
   * Resolves once `lines` are on disk (written and fsynced), and after every batch appended before them; with
   * no lines, once those are.
   */
  append(lines: string[]): Promise<void> {
    if (lines.length === 0 && !this.flushing) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure.err);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ lines, resolve, reject });
      this.startFlush();
    });
  }

  private startFlush(): void {
    if (this.flushing) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      if (this.queue.length > 0 || this.swap) this.startFlush();
    });
  }

  /** The owner has undone what failed: appends are taken again (the first one rewrites the file). */
  recover(): void {
    this.failure = undefined;
  }

  /** Writes batch after batch until nothing is queued. */
  private async flush(): Promise<void> {
    while (this.queue.length > 0 || this.swap) {
      if (this.swap) {
        const swap = this.swap;
        this.swap = undefined;
        await swap();
        continue;
      }
      const batch = this.queue.splice(0);
      const lines = batch.flatMap((waiter) => waiter.lines);
      const bytes = Buffer.from(`${lines.join('\n')}\n`);
      try {
        if (lines.length === 0) {
          // Writes that changed nothing, acknowledged after the batches before them.
        } else if (this.needsRewrite) {
          // The snapshot holds these records (they are in memory): the rewrite commits them.
          await this.rewrite();
        } else {
          await this.appendBytes(bytes);
          this.appendedSinceRewrite += lines.length;
          this.compaction?.state.tail.push(bytes);
        }
      } catch (err) {
        this.fail(err, batch);
        continue;
      }
      for (const waiter of batch) waiter.resolve();
      this.maybeCompact();
    }
  }

  private fail(err: unknown, batch: Waiter[]): void {
    this.failure = { err };
    this.needsRewrite = true;
    if (this.compaction) this.compaction.state.aborted = err;
    const rejected = [...batch, ...this.queue.splice(0)];
    this.options.onFailure(err);
    for (const waiter of rejected) waiter.reject(err);
  }

  private async appendBytes(bytes: Buffer): Promise<void> {
    const handle = await this.liveFile();
    try {
      // Opened with O_DSYNC: the write returns once the bytes are on disk, as a write and an fdatasync did.
      await handle.write(bytes);
    } catch (err) {
      await this.closeLiveFile();
      throw err;
    }
  }

  /**
   * The file open for appending, as long as its path still names it: checked before every batch (one stat where
   * opening and closing it were two calls), so that a file moved away or replaced is opened anew by its path, as
   * opening it for each batch did, and a batch never goes where no restart reads it.
   */
  private async liveFile(): Promise<fs.FileHandle> {
    if (this.live) {
      const named = await fs.stat(this.filename).catch((err: unknown) => {
        if (isMissing(err)) return undefined;
        throw err;
      });
      if (named && named.ino === this.live.ino && named.dev === this.live.dev) return this.live.handle;
      await this.closeLiveFile();
    }
    const handle = await fs.open(this.filename, APPEND_DSYNC, PRIVATE_FILE_MODE);
    try {
      const { ino, dev } = await handle.stat();
      this.live = { handle, ino, dev };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    return handle;
  }

  private async closeLiveFile(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    await live?.handle.close().catch(() => undefined);
  }

  private maybeCompact(): void {
    if (this.compaction || this.closing) return;
    if (this.appendedSinceRewrite < Math.max(COMPACTION_MIN_RECORDS, this.recordsAtRewrite)) return;
    this.compactInBackground().catch(() => undefined);
  }

  /**
   * Rewrites the file from a snapshot while batches go on; the last step (the tail, fsync, rename) runs between
   * two batches. A batch failing meanwhile abandons it (the snapshot may hold what is being undone).
   */
  compactInBackground(): Promise<void> {
    if (this.compaction) return this.compaction.done;
    const state: CompactionState = { tail: [] };
    const done = (async () => {
      const tmp = `${this.filename}~`;
      let handle: fs.FileHandle | undefined;
      try {
        const snapshot = await this.options.snapshot();
        handle = await fs.open(tmp, 'w', PRIVATE_FILE_MODE);
        const written = await writeSnapshot(handle, snapshot);
        const file = handle;
        await new Promise<void>((resolve, reject) => {
          this.swap = async () => {
            try {
              if (state.aborted !== undefined) throw state.aborted;
              let tailRecords = 0;
              for (const bytes of state.tail) {
                await file.write(bytes);
                tailRecords += countLines(bytes);
              }
              await file.datasync();
              await file.close();
              handle = undefined;
              await fs.rename(tmp, this.filename);
              await syncDirectory(path.dirname(this.filename));
              this.recordsAtRewrite = written;
              this.appendedSinceRewrite = tailRecords;
              resolve();
            } catch (err) {
              reject(err);
            }
          };
          this.startFlush();
        });
      } catch (err) {
        await handle?.close().catch(() => undefined);
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      } finally {
        this.compaction = undefined;
      }
    })();
    this.compaction = { state, done };
    return done;
  }

  /** Rewrites the whole file from memory, nothing else appended meanwhile (run by the flush loop or at close). */
  private async rewrite(): Promise<void> {
    // Not the background compaction's file: one abandoned after a failure may still be writing to it.
    const tmp = `${this.filename}~~`;
    const snapshot = await this.options.snapshot();
    const handle = await fs.open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      const written = await writeSnapshot(handle, snapshot);
      await handle.datasync();
      await handle.close();
      await fs.rename(tmp, this.filename);
      await syncDirectory(path.dirname(this.filename));
      this.needsRewrite = false;
      this.recordsAtRewrite = written;
      this.appendedSinceRewrite = 0;
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  /** Waits for the queued batches and any compaction, then leaves the file compacted (one line per document and index). */
  async close(): Promise<void> {
    this.closing = true;
    while (this.flushing || this.compaction) {
      await this.flushing;
      await this.compaction?.done.catch(() => undefined);
    }
    await this.closeLiveFile();
    if (this.failure) return;
    await this.rewrite();
  }
}

function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count += 1;
  return count;
}

/**
 * Writes the indexes and documents a slice at a time; returns the number of records written. The records are
 * encoded into one buffer reused from slice to slice: joining a slice into a string (~0.5 MB) allocated it in
 * V8's large-object space, and a compaction's 100 MB of those brought on a major GC.
 */
async function writeSnapshot(handle: fs.FileHandle, snapshot: Snapshot): Promise<number> {
  const head = snapshot.indexes.map((index) => `${indexCreatedRecord(index)}\n`).join('');
  if (head) await handle.write(head);
  const { docs } = snapshot;
  const buffer = Buffer.allocUnsafe(SNAPSHOT_BUFFER_BYTES);
  let next = 0;
  while (next < docs.length) {
    const started = performance.now();
    let used = 0;
    do {
      const line = `${documentRecord(docs[next])}\n`;
      // Worst case of UTF-8 (3 bytes a UTF-16 unit), so that a record is never cut at the buffer's end.
      if (line.length * 3 > buffer.length - used) {
        if (used > 0) break;
        await handle.write(line);
      } else {
        used += buffer.write(line, used);
      }
      next += 1;
    } while (next < docs.length && (next % 64 !== 0 || performance.now() - started < SLICE_MS));
    if (used > 0) await handle.write(buffer, 0, used);
  }
  return snapshot.indexes.length + docs.length;
}

/** Makes a rename durable; some file systems cannot fsync a directory, which then is no error. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err;
  } finally {
    await handle?.close();
  }
}
