/**
 * `@transactions` (the Undo panel): the recent committed writes of callers, newest first, and undoing them.
 *
 * The stores have no database transactions to undo, so the write path keeps a log of its own (WriteJournal): one
 * transaction per request, holding each object it wrote with its content before the write (null: it made the
 * object). Undo writes through the same write path — a new object is removed as a DELETE removes it, a changed
 * one gets its content back as a revert does — so events, versions and the search index follow as for any
 * write, and the undo is itself a transaction (which may be undone in turn).
 *
 * What an undo cannot do is refused before anything is written (409): a transaction a later one depends on (a
 * later write to one of its objects, or inside an object it made), and writes whose undoing would need more than
 * their content back (removals, moves and renames, workflow, sharing, order, and edits that replaced a file).
 */
import { clip, conflict, notFound, type Document } from '@cms/shared';
import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../content/caller';
import { fileValuesOf } from '../content/field-values';
import type { ContentDoc, VersionedContent } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { TypeRegistry } from '../types';
import { contentRestored, versionedContent } from './versions';
import type { ContentWriter, JournaledWrite, WriteJournal, WriteKind } from '../content/write-path';

/** One object a transaction wrote. */
export interface TransactionObject {
  uid: string;
  /** Its path after the write (before it, for a removal). */
  path: string;
  kind: WriteKind;
  /** Its id and content before the write, what undoing restores; null when the write made it. */
  before: (VersionedContent & { id: string }) | null;
  /** The UIDs above it after the write: a later write inside an object a transaction made depends on it. */
  ancestors: string[];
}

/** One transaction: the caller's writes of one request. */
export interface TransactionRecord extends Document {
  /** Opaque, the `id` clients send back to undo it. */
  _id: string;
  /**
   * What the writes of one request share (requestKey): the request id is the client's `X-Request-Id` when it
   * sends one, so the key holds the user too (nobody's writes join another user's transaction).
   */
  request_key: string;
  /** How many objects it holds; at most MAX_OBJECTS, beyond which it is `incomplete`. */
  count: number;
  /** Set when the request wrote more objects than a transaction holds: it cannot be undone. */
  incomplete?: boolean;
  /** The order of transactions: the first write's instant, then a tie-breaker. */
  order: string;
  /** ISO-8601 instant of its first write. */
  at: string;
  /** The caller's user id; empty for an anonymous one. */
  username: string;
  objects: TransactionObject[];
}

/** Where the log is kept (store/transaction-log.ts). */
export interface TransactionStore {
  /** Adds `object` to the transaction of its request, made from `record` when it is the first; true when made. */
  append(record: TransactionRecord, object: TransactionObject): Promise<boolean>;
  /** The newest transactions, newest first. */
  newest(limit: number): Promise<TransactionRecord[]>;
  byIds(ids: string[]): Promise<TransactionRecord[]>;
  /** Transactions after `order`, in order. */
  after(order: string): Promise<TransactionRecord[]>;
  /** Drops the oldest transactions beyond the newest `keep`. */
  trim(keep: number): Promise<void>;
}

/** Most objects one transaction holds: a request writing more (a long list moved at once) cannot be undone. */
export const MAX_OBJECTS = 500;

/** How long a request's writes join its transaction: a client re-using a request id later starts a new one. */
const JOIN_WINDOW_MS = 10 * 60_000;

function requestKey(username: string, requestId: string, now: Date): string {
  const window = Math.floor(now.getTime() / JOIN_WINDOW_MS);
  return createHash('sha256').update(`${username}\n${requestId}\n${window}`).digest('base64url');
}

/** What the write path tells the log; it never fails a write (the write has committed). */
export class TransactionJournal implements WriteJournal {
  private counter = 0;

  constructor(
    private readonly store: TransactionStore,
    /** How many transactions are kept (TRANSACTION_LOG_SIZE): the log never grows beyond them. */
    private readonly keep: number,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record({ kind, author, before, after }: JournaledWrite): Promise<void> {
    const at = this.now().toISOString();
    // Writes of one process in the same millisecond keep their order; of two processes, either may be first.
    const order = `${at}|${(this.counter++ % 1e9).toString().padStart(9, '0')}`;
    const object: TransactionObject = {
      uid: after._id,
      path: after.path ?? before?.path ?? '/',
      kind,
      before: before ? { ...versionedContent(before), id: before.id } : null,
      ancestors: after.ancestors,
    };
    const record: TransactionRecord = {
      _id: randomBytes(12).toString('base64'),
      request_key: requestKey(author.principal?.id ?? '', author.requestId, this.now()),
      order,
      at,
      username: author.principal?.id ?? '',
      count: 0,
      objects: [],
    };
    try {
      if (await this.store.append(record, object)) await this.store.trim(this.keep);
    } catch (error) {
      this.onError(error);
    }
  }
}

/** A transaction as `GET @transactions` lists it (the original's items). */
export interface TransactionItem {
  description: string;
  id: string;
  size: number;
  time: string;
  username: string;
}

/** What undoing a transaction's object does. */
const RESTORED: ReadonlySet<WriteKind> = new Set<WriteKind>(['update', 'revert', 'undo']);
const REMOVED: ReadonlySet<WriteKind> = new Set<WriteKind>(['create', 'copy']);

/** Most transactions one undo may name (the Undo panel shows 20 a page). */
export const MAX_UNDO = 50;

export class TransactionCommands {
  constructor(
    private readonly store: TransactionStore,
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly types: TypeRegistry,
    /** Removes an object as `DELETE` does (ContentCommands.remove). */
    private readonly remove: (doc: ContentDoc, caller: Caller) => Promise<void>,
    /** How many the listing shows at most (the log keeps no more). */
    private readonly limit: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<TransactionItem[]> {
    return (await this.store.newest(this.limit)).map(item);
  }

  /**
   * Undoes the transactions named by `ids` (their ids as listed; only the first word counts, as the original
   * reads them), the newest first. Everything is checked before anything is written.
   */
  async undo(ids: readonly string[], caller: Caller): Promise<void> {
    const wanted = [...new Set(ids.map((id) => id.trim().split(/\s+/)[0]))];
    const found = await this.store.byIds(wanted);
    const missing = wanted.filter((id) => !found.some((t) => t._id === id));
    if (missing.length) {
      const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : '';
      throw notFound(`No transaction ${clip(missing[0], 40)}${more} to undo: it may be too old`);
    }
    const chosen = found.sort((a, b) => b.order.localeCompare(a.order));
    for (const transaction of chosen) this.checkUndoable(transaction);
    await this.checkIndependent(chosen);
    for (const transaction of chosen) await this.undoOne(transaction, caller);
  }

  /** 409 unless every write of the transaction can be undone by writing content back. */
  private checkUndoable(transaction: TransactionRecord): void {
    if (transaction.incomplete) {
      throw conflict(`${describe(transaction)} cannot be undone: it wrote more than ${MAX_OBJECTS} objects`);
    }
    for (const object of transaction.objects) {
      if (REMOVED.has(object.kind)) continue;
      if (!RESTORED.has(object.kind)) {
        throw conflict(`${describe(transaction)} cannot be undone: a ${object.kind} is not undone from the log`);
      }
      // Undo writes content back, not places: a rename is undone by renaming back.
      if (object.before && object.before.id !== lastSegment(object.path)) {
        throw conflict(`${describe(transaction)} cannot be undone: it renamed ${clip(object.path, 200)}`);
      }
    }
  }

  /** 409 when a later transaction not undone with it wrote one of its objects, or inside an object it made. */
  private async checkIndependent(chosen: TransactionRecord[]): Promise<void> {
    const oldest = chosen[chosen.length - 1];
    const selected = new Set(chosen.map((t) => t._id));
    const later = (await this.store.after(oldest.order)).filter((t) => !selected.has(t._id));
    for (const transaction of chosen) {
      const made = new Set(transaction.objects.filter((o) => REMOVED.has(o.kind)).map((o) => o.uid));
      const touched = new Set(transaction.objects.map((o) => o.uid));
      const blocker = later.find(
        (other) =>
          other.order > transaction.order &&
          other.objects.some((o) => touched.has(o.uid) || o.ancestors.some((uid) => made.has(uid))),
      );
      if (blocker) {
        throw conflict(
          `${describe(transaction)} cannot be undone: the later ${describe(blocker)} depends on it; undo that first`,
        );
      }
    }
  }

  private async undoOne(transaction: TransactionRecord, caller: Caller): Promise<void> {
    const made = new Set(transaction.objects.filter((o) => REMOVED.has(o.kind)).map((o) => o.uid));
    for (const object of [...transaction.objects].reverse()) {
      // An object made in the same transaction goes as a whole; what is inside it goes with it.
      if (!REMOVED.has(object.kind) && made.has(object.uid)) continue;
      if (object.ancestors.some((uid) => made.has(uid))) continue;
      const doc = await this.repo.byUid(object.uid);
      if (!doc) {
        if (REMOVED.has(object.kind)) continue;
        throw conflict(`${describe(transaction)} cannot be undone: ${clip(object.path, 200)} is gone`);
      }
      if (REMOVED.has(object.kind)) await this.remove(doc, caller);
      else if (object.before) await this.restore(doc, object.before, transaction, caller);
    }
  }

  /** Writes the content the object had before the transaction back, as a revert does. */
  private async restore(
    doc: ContentDoc,
    before: VersionedContent,
    transaction: TransactionRecord,
    caller: Caller,
  ): Promise<void> {
    const blobs = (d: ContentDoc) =>
      fileValuesOf(d, this.types)
        .map((f) => f.blob_id)
        .sort()
        .join();
    // The files a write replaced are released once nothing refers to them: they cannot be brought back.
    if (blobs({ ...doc, fields: before.fields }) !== blobs(doc)) {
      throw conflict(`${describe(transaction)} cannot be undone: it replaced a file of ${clip(doc.path ?? '/', 200)}`);
    }
    await this.writer.write(
      doc,
      {
        kind: 'undo',
        permission: 'Modify portal content',
        note: `Undo of ${describe(transaction)}`,
        plan: () => contentRestored(before, this.now().toISOString(), caller.requestId),
      },
      caller,
    );
  }
}

/** `transaction 2026-... /path`, for messages. */
function describe(transaction: TransactionRecord): string {
  const first = transaction.objects[0];
  return `the transaction of ${transaction.at.slice(0, 19)} (${first ? `${first.kind} of ${clip(first.path, 200)}` : 'empty'})`;
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** What a transaction did, in the original's form: the path first, then the writes. */
function descriptionOf(transaction: TransactionRecord): string {
  const [first, ...rest] = transaction.objects;
  if (!first) return '';
  const kinds = [...new Set(transaction.objects.map((o) => o.kind))].join(',');
  return `${first.path} ${kinds}${rest.length ? ` +${rest.length}` : ''}`;
}

function item(transaction: TransactionRecord): TransactionItem {
  const time = transaction.at.slice(0, 19);
  const description = descriptionOf(transaction);
  return {
    description,
    // As the original lists them: the id, then what Volto's Undo panel filters on (time, path, writes).
    id: `${transaction._id} ${time} ${description}`.trim(),
    // What the log keeps of it: the measure a client sees of how much it changed.
    size: Buffer.byteLength(JSON.stringify(transaction.objects)),
    time,
    username: transaction.username,
  };
}
