/**
 * The one way content objects are written. Every write — a new object, a change of one object's document,
 * a removal (tombstone) — goes through ContentWriter, which owns, once for all of them:
 *
 * - the optimistic retry: each attempt plans the change from the object's current version and commits it
 *   only if the object is still at that version; on a conflict it re-reads and tries again after a short
 *   randomized backoff, a bounded number of times (then 409);
 * - the caller's permission, checked on the current version at every attempt (not for system writes: the
 *   follow-ups of a write already allowed), unless the dispatcher proved it on that object (`Caller.granted`:
 *   the declared permission of the request's context is checked once, by the dispatcher);
 * - the lock check (LockGuard) and the version record (VersionRecorder), extension points;
 * - the events, committed in the same atomic operation as the write (the outbox), and their flush after it;
 * - the transaction log (WriteJournal): each committed write of a caller, with what undoing it needs.
 */
import {
  conflict,
  covers,
  DEFAULT_RETRY,
  notFound,
  requirePermission,
  LOST_RACE,
  retryLostRaces,
  urlOf,
  type EventEnvelope,
  type Permission,
  type WriteRetry,
} from '@cms/shared';
import { setImmediate } from 'node:timers/promises';
import { accessOf } from './access';
import type { Caller } from './caller';
import type { FileValue } from '../files/files';
import type { ContentDoc, VersionRecord } from './model';
import type { ContentWriteStore, EventRelay, StoredChange } from './repository';

/** A write the system makes to finish one already allowed (a subtree following its anchor): nothing is checked. */
export interface SystemWrite {
  readonly system: true;
}

export const SYSTEM_WRITE: SystemWrite = { system: true };

/** Who a write is made for. */
export type WriteAuthor = Caller | SystemWrite;

function isSystemWrite(author: WriteAuthor): author is SystemWrite {
  return 'system' in author;
}

/** What a write does, for the extension points. */
export type WriteKind =
  | 'site-root'
  | 'create'
  | 'copy'
  | 'update'
  | 'delete'
  | 'relocate'
  | 'position'
  | 'subtree'
  | 'transition'
  | 'sharing'
  /** A lock taken, refreshed or released: lock-commands.ts applies the lock rules to these itself. */
  | 'lock'
  /** An object set back to one of its versions (`PATCH @history`). */
  | 'revert'
  /** A version kept on request (the content rules' Versioning action), even of an unchanged object. */
  | 'version'
  /**
   * A working copy's content written into its original (`PATCH @workingcopy`): working-copies.ts applies the
   * lock rules to it itself (the check-out's own lock does not stop it).
   */
  | 'checkin'
  /** An object's content set back to what it was before a write (`PATCH @transactions`, transactions.ts). */
  | 'undo';

/** Whether a caller may write to a locked object (locks.ts LockCheck; NO_LOCKS lets every write through). */
export interface LockGuard {
  /** Throws (403, saying it is locked: addendum §4) unless the caller may write to `doc` as it is stored now (`caller.lockToken`). */
  check(doc: ContentDoc, caller: Caller): void | Promise<void>;
}

export const NO_LOCKS: LockGuard = { check: () => undefined };

/** A write as the version keeping sees it: `current` is null for a new object. */
export interface VersionedWrite {
  kind: WriteKind;
  current: ContentDoc | null;
  next: ContentDoc;
  author: WriteAuthor;
  /** The change note sent with the write. */
  note?: string;
  /** An imported object's own version, as the export describes it (it comes after its earlier versions). */
  imported?: ImportedVersion;
}

/** The metadata of an imported object's latest version, from the export. */
export interface ImportedVersion {
  version: number;
  /** ISO-8601 instant. */
  time: string;
  actor: string;
  comments: string;
}

/**
 * Keeps versions of objects (the history, versions.ts). The version a write makes is committed with the write
 * (`version_pending`) and settled into the versions right after; NO_VERSIONS keeps none.
 */
export interface VersionRecorder {
  /** The version the write makes, or null. */
  plan(write: VersionedWrite): VersionRecord | null;
  /** Moves the object's committed pending version into the versions; idempotent. */
  settle(doc: ContentDoc): Promise<void>;
  /** Blob ids the versions of an object refer to (those stay when the object itself drops them). */
  keptBlobs(doc: ContentDoc): Promise<Set<string>>;
  /** Removes the versions of removed objects; returns the blobs they referred to. */
  forget(uids: string[]): Promise<FileValue[]>;
  /** Keeps an imported object's earlier versions (idempotent: a re-import after a crash keeps them again). */
  keepEarlier(records: VersionRecord[]): Promise<void>;
}

export const NO_VERSIONS: VersionRecorder = {
  plan: () => null,
  settle: async () => undefined,
  keptBlobs: async () => new Set(),
  forget: async () => [],
  keepEarlier: async () => undefined,
};

/** A change of one object's document, planned from its current version. */
export interface Change {
  /** Members to set; `version` is the writer's. */
  set: Partial<ContentDoc>;
  unset?: readonly (keyof ContentDoc)[];
  /** The events committed with the change, given the object before and as it will be stored. */
  events(next: ContentDoc, current: ContentDoc): EventEnvelope[];
}

/** A write to one existing object. */
export interface ObjectWrite {
  kind: WriteKind;
  /**
   * What a caller needs on the object's current version, unless the dispatcher proved it on that object: the
   * write path then takes the proof (`Caller.granted`). None: the permission the endpoint declares (the
   * caller's `proof`), for commands that only their endpoint calls.
   */
  permission?: Permission;
  /**
   * The change to make to `current`, or null when there is nothing to change. Called at every attempt, with
   * the object as stored then; throws when a rule no longer holds (nothing is written then).
   */
  plan(current: ContentDoc): Change | null | Promise<Change | null>;
  /** The change note for the version the write makes (`changeNote`, a revert's or a check-in's message). */
  note?: string;
}

/** A new object. */
export interface NewObject {
  kind: WriteKind;
  doc: ContentDoc;
  events: EventEnvelope[];
  /** The folder it goes into, where a caller needs `Add portal content`; null for the site root. */
  container: ContentDoc | null;
  /** An imported object's history: its earlier versions (oldest first) and its own version's metadata. */
  history?: { earlier: VersionRecord[]; latest: ImportedVersion };
}

/** The object before and after a write; `changed` is false when its plan found nothing to change. */
export interface Written {
  before: ContentDoc;
  after: ContentDoc;
  changed: boolean;
}

/** A committed write of a caller, as the transaction log keeps it: `before` is null for a new object. */
export interface JournaledWrite {
  kind: WriteKind;
  author: Caller;
  before: ContentDoc | null;
  after: ContentDoc;
}

/**
 * Keeps the committed writes of callers (`@transactions`, transactions.ts). Told after the commit: a write whose
 * record fails is still done, it cannot be undone from the log. It must not reject.
 */
export interface WriteJournal {
  record(write: JournaledWrite): Promise<void>;
}

export const NO_JOURNAL: WriteJournal = { record: async () => undefined };

/**
 * Writes the log leaves out: bookkeeping that changes no content (a lock, a version kept on request) and the site
 * root's making. The system's own writes (follow-ups of a caller's write) are left out too: undoing the caller's
 * write is what undoes them.
 */
const UNJOURNALED: ReadonlySet<WriteKind> = new Set<WriteKind>(['lock', 'version', 'site-root']);

export interface WriterOptions {
  /** The transaction log; none by default. */
  journal?: WriteJournal;
  locks?: LockGuard;
  versions?: VersionRecorder;
  retry?: Partial<WriteRetry>;
  /**
   * Told the paths of every committed write; the write answers only once what it returns has resolved (the
   * gateways' caches have dropped them: events/change-feed.ts). It must not reject.
   */
  onCommit?: (paths: string[]) => Promise<void> | void;
}

/** Writes whose events are flushed together once they are all done (a subtree walk, a copied tree). */
export class DeferredFlushes {
  private readonly uids = new Set<string>();

  constructor(private readonly relay: EventRelay) {}

  add(uid: string): void {
    this.uids.add(uid);
  }

  async flush(): Promise<void> {
    const uids = [...this.uids];
    this.uids.clear();
    await Promise.all(uids.map((uid) => this.relay.flush(uid)));
  }
}

export class ContentWriter {
  private readonly locks: LockGuard;
  private readonly versions: VersionRecorder;
  private readonly retry: WriteRetry;
  private readonly onCommit: (paths: string[]) => Promise<void> | void;
  private readonly journal: WriteJournal;

  constructor(
    private readonly store: ContentWriteStore,
    private readonly relay: EventRelay,
    options: WriterOptions = {},
  ) {
    this.locks = options.locks ?? NO_LOCKS;
    this.versions = options.versions ?? NO_VERSIONS;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.onCommit = options.onCommit ?? (() => undefined);
    this.journal = options.journal ?? NO_JOURNAL;
  }

  /**
   * Raises 401/403 unless the author has `permission` on `doc` as given: a check before costly validation, of
   * an object the dispatcher did not check (a translation's target, a moved object's source). Where it did
   * (the request's context, with the permission its endpoint declares), its proof stands and nothing is checked.
   */
  checkPermission(doc: ContentDoc, permission: Permission, author: WriteAuthor): void {
    if (isSystemWrite(author) || covers(author.granted, permission, doc.path ?? '/')) return;
    requirePermission(author.principal, permission, accessOf(doc));
  }

  /** Of the blobs a write to `doc` dropped, those no version of it refers to: they may be released. */
  async unversioned(doc: ContentDoc, dropped: FileValue[]): Promise<FileValue[]> {
    if (!dropped.length || doc.last_version === undefined) return dropped;
    const kept = await this.versions.keptBlobs(doc);
    return dropped.filter((file) => !kept.has(file.blob_id));
  }

  /** After objects were removed: their versions go, and the blobs only those referred to are returned. */
  async forgetVersions(removed: ContentDoc[]): Promise<FileValue[]> {
    return this.versions.forget(removed.filter((d) => d.last_version !== undefined).map((d) => d._id));
  }

  /** A batch whose events are flushed by its own `flush()` rather than after each write. */
  deferFlushes(): DeferredFlushes {
    return new DeferredFlushes(this.relay);
  }

  /** Adds a new object with its events; false when its path is taken (nothing was written). */
  async insert(object: NewObject, author: WriteAuthor, flushes?: DeferredFlushes): Promise<boolean> {
    if (object.container) this.checkPermission(object.container, 'Add portal content', author);
    const made = this.versions.plan({
      kind: object.kind,
      current: null,
      next: object.doc,
      author,
      imported: object.history?.latest,
    });
    // Before the object: once it is there, a re-import skips it, so its earlier versions must already be kept.
    if (made && object.history?.earlier.length) await this.versions.keepEarlier(object.history.earlier);
    const doc = withVersion(object.doc, made);
    if (!(await this.store.insertNew(doc, attributed(object.events, author)))) return false;
    await this.committed(doc, object.events.length > 0, flushes, this.onCommit([doc.path ?? '/']));
    await this.journaled(object.kind, author, null, doc);
    return true;
  }

  /**
   * Writes one change to an existing object, planned from its current version, as one atomic conditional
   * write with its events. A caller's write to an object that is gone is 404; a system write's is null.
   * A change that makes the object's path one that is taken throws DuplicateKeyError (nothing was written).
   */
  write(
    initial: ContentDoc,
    write: ObjectWrite,
    author: SystemWrite,
    flushes?: DeferredFlushes,
  ): Promise<Written | null>;
  write(initial: ContentDoc, write: ObjectWrite, author: Caller, flushes?: DeferredFlushes): Promise<Written>;
  write(
    initial: ContentDoc,
    write: ObjectWrite,
    author: WriteAuthor,
    flushes?: DeferredFlushes,
  ): Promise<Written | null>;
  async write(
    initial: ContentDoc,
    write: ObjectWrite,
    author: WriteAuthor,
    flushes?: DeferredFlushes,
  ): Promise<Written | null> {
    let current = initial;
    return retryLostRaces(
      this.retry,
      async (attempt): Promise<Written | null | typeof LOST_RACE> => {
        if (attempt > 1) {
          const reread = await this.store.byUid(initial._id);
          if (!reread) return this.gone(initial, author);
          current = reread;
        }
        await this.check(current, write, author);
        // A version the last write left pending goes to the versions before this write may replace it.
        await this.versions.settle(current);
        // One turn for the others between the caller's checks and the change's making (its values stringified,
        // its events' snapshot): a large page's write otherwise held the one process for both at once.
        await setImmediate();
        const change = await write.plan(current);
        if (!change) return { before: current, after: current, changed: false };
        const stored = storedChange(current, change);
        const made = this.versions.plan({
          kind: write.kind,
          current,
          next: applied(current, stored),
          author,
          note: write.note,
        });
        if (made) Object.assign(stored.set, { last_version: made.version, version_pending: made });
        const next = applied(current, stored);
        const events = attributed(change.events(next, current), author);
        // The store serializes the whole object when it commits: a large one after another turn for the others.
        if (holdsLargeText(stored)) await setImmediate();
        if (!(await this.store.applyChange(current._id, current.version, stored, events))) return LOST_RACE;
        const paths = current.path === next.path ? [next.path ?? '/'] : [current.path ?? '/', next.path ?? '/'];
        await this.committed(next, events.length > 0, flushes, this.onCommit(paths));
        await this.journaled(write.kind, author, current, next);
        return { before: current, after: next, changed: true };
      },
      () => conflict('The object is being changed by others; try again'),
    );
  }

  private async check(current: ContentDoc, write: ObjectWrite, author: WriteAuthor): Promise<void> {
    if (isSystemWrite(author)) return;
    // Without a permission of its own, a write needs its endpoint's: never View alone (a command reached from a
    // read-only endpoint must name what it needs).
    const permission = write.permission ?? author.proof?.permission;
    if (!permission || (!write.permission && permission === 'View')) {
      throw new Error(`a caller's ${write.kind} write must name its permission or carry its endpoint's proof`);
    }
    this.checkPermission(current, permission, author);
    if (write.kind !== 'lock' && write.kind !== 'checkin') await this.locks.check(current, author);
  }

  private async journaled(
    kind: WriteKind,
    author: WriteAuthor,
    before: ContentDoc | null,
    after: ContentDoc,
  ): Promise<void> {
    if (isSystemWrite(author) || UNJOURNALED.has(kind)) return;
    await this.journal.record({ kind, author, before, after });
  }

  private gone(initial: ContentDoc, author: WriteAuthor): null {
    if (isSystemWrite(author)) return null;
    throw notFound(`Resource not found: ${urlOf(author.publicUrl, initial.path ?? '/')}`);
  }

  /**
   * After the commit: the version settled, then the events out (bounded by the relay), unless deferred; and,
   * whatever happens to those, not before the gateways' caches have dropped what it changed (`confirmed`).
   */
  private async committed(
    after: ContentDoc,
    hasEvents: boolean,
    flushes: DeferredFlushes | undefined,
    confirmed: Promise<void> | void,
  ): Promise<void> {
    try {
      // The write has committed: a version that cannot move now stays pending in the object, where readers see
      // it and the next write or the sweep moves it; the write is not reported as failed for it.
      await this.versions.settle(after).catch(() => undefined);
      if (!hasEvents) return;
      if (flushes) flushes.add(after._id);
      else await this.relay.flush(after._id);
    } finally {
      await confirmed;
    }
  }
}

/** Text the store copies at a cost (a 2.7 MB page took ~50-100 ms to serialize): JSON fields are stored as text. */
const LARGE_TEXT_CHARS = 256 * 1024;

/** Whether a change sets a long text, at the top or among the fields. */
function holdsLargeText(change: StoredChange): boolean {
  const values = [...Object.values(change.set), ...Object.values(change.set.fields ?? {})];
  return values.some((value) => typeof value === 'string' && value.length >= LARGE_TEXT_CHARS);
}

/** A new object with the version its creation makes. */
function withVersion(doc: ContentDoc, made: VersionRecord | null): ContentDoc {
  return made ? { ...doc, last_version: made.version, version_pending: made } : doc;
}

/** The change as stored: members left undefined are dropped (the store would not keep them), the version bumped. */
/** The events of a caller's write name the caller (content rules read it); the system's own name nobody. */
function attributed(events: EventEnvelope[], author: WriteAuthor): EventEnvelope[] {
  const actor = isSystemWrite(author) ? undefined : author.principal?.id;
  return actor ? events.map((event) => ({ ...event, actor })) : events;
}

function storedChange(current: ContentDoc, change: Change): StoredChange {
  const set = Object.fromEntries(Object.entries(change.set).filter(([, value]) => value !== undefined));
  return { set: { ...set, version: current.version + 1 }, unset: change.unset };
}

/** The object as the store holds it after `change` (without its outbox). */
function applied(current: ContentDoc, change: StoredChange): ContentDoc {
  const next: Record<string, unknown> = { ...current, ...change.set };
  for (const name of ['_outbox', '_pending', ...(change.unset ?? [])]) delete next[name];
  return next as ContentDoc;
}
