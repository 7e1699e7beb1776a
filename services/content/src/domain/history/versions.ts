/**
 * Versions of content objects (`@history`), for types with the `cms.versioning` behavior: the creation makes
 * version 0 ("Initial version"), and every later write that changes what a version keeps (an edit, a revert, a
 * check-in) makes the next one, with its author, time and change note.
 *
 * A version is made by the write path in the same atomic write as the change (the object's `version_pending`)
 * and moved to the versions collection right after, so that a crash in between loses nothing: the move is
 * idempotent and is finished before the object's next write, by the sweep, or by the reader.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FileValue } from '../files/files';
import { asFileValue } from '../files/files';
import type { ContentDoc, VersionedContent, VersionRecord } from '../content/model';

export type { VersionedContent, VersionRecord };
import type { TypeRegistry } from '../types';
import type { Change, ImportedVersion, VersionedWrite, VersionRecorder, WriteKind } from '../content/write-path';
import { modifiedEvent } from '../content/content-events';

/** Writes that make a version when they change what one keeps. */
const VERSIONING_WRITES: ReadonlySet<WriteKind> = new Set<WriteKind>([
  'create',
  'update',
  'revert',
  'checkin',
  'version',
  // An undo (`@transactions`) changes content as an edit does: the history shows it.
  'undo',
]);

export const INITIAL_VERSION_NOTE = 'Initial version';

/**
 * The change that sets an object's content back to `content` (a revert to a version, an undo): the versioned
 * members, a new modification date, and the event naming every member it sets.
 */
export function contentRestored(content: VersionedContent, modified: string, requestId: string): Change {
  const { title, description, effective, expires, fields } = content;
  return {
    set: { title, description, effective, expires, fields, modified },
    events: (next) => [
      modifiedEvent(next, ['title', 'description', 'effective', 'expires', ...Object.keys(fields)], requestId),
    ],
  };
}

export function versionedContent(doc: ContentDoc): VersionedContent {
  return {
    title: doc.title,
    description: doc.description,
    effective: doc.effective ?? null,
    expires: doc.expires ?? null,
    fields: doc.fields ?? {},
  };
}

/**
 * The version a write of `kind` makes of `next` (`current` null for a new object), or null when it makes none: a
 * write that changes nothing a version keeps makes none, unless it asks for one (`version`).
 */
export function versionOf(
  types: TypeRegistry,
  write: {
    kind: WriteKind;
    current: ContentDoc | null;
    next: ContentDoc;
    actor: string;
    note?: string;
    at: Date;
    imported?: ImportedVersion;
  },
): VersionRecord | null {
  const { kind, current, next, imported } = write;
  if (!VERSIONING_WRITES.has(kind) || !keepsVersions(types, next)) return null;
  const content = versionedContent(next);
  if (imported && !current) return { _id: `${next._id}:${imported.version}`, uid: next._id, ...imported, content };
  if (kind !== 'version' && current && isDeepStrictEqual(versionedContent(current), content)) return null;
  const version = current ? (current.last_version ?? -1) + 1 : 0;
  return {
    _id: `${next._id}:${version}`,
    uid: next._id,
    version,
    time: write.at.toISOString(),
    actor: write.actor,
    comments: write.note ?? (current ? '' : INITIAL_VERSION_NOTE),
    content,
  };
}

/** Whether objects of the type keep versions at all (`versioning_enabled` may still turn them off per object). */
export function keepsVersions(types: TypeRegistry, doc: ContentDoc): boolean {
  return types.get(doc.portal_type).behaviors.includes('cms.versioning') && doc.fields?.versioning_enabled !== false;
}

/** The blobs a version refers to. */
export function versionFiles(record: VersionRecord): FileValue[] {
  return Object.values(record.content.fields).flatMap((value) => asFileValue(value) ?? []);
}

/** Where versions are kept: one record per version, keyed by UID, apart from the objects (store/). */
export interface VersionArchive {
  /** Stores the record (idempotent: the same record may be moved twice after a crash). */
  keep(record: VersionRecord): Promise<void>;
  /** Clears the object's `version_pending` if it still holds version `version`, without touching anything else. */
  settled(uid: string, version: number): Promise<void>;
  /** Every version of an object, oldest first. */
  versionsOf(uid: string): Promise<VersionRecord[]>;
  versionOf(uid: string, version: number): Promise<VersionRecord | null>;
  /** Objects whose latest version has not been moved yet. */
  unsettled(): Promise<ContentDoc[]>;
  /** Removes the versions of removed objects; returns them (their blobs are released then). */
  forget(uids: string[]): Promise<VersionRecord[]>;
}

/** The write path's version keeping (write-path.ts VersionRecorder) over a VersionArchive. */
export class VersionKeeper implements VersionRecorder {
  constructor(
    private readonly archive: VersionArchive,
    private readonly types: TypeRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Whether `doc` keeps versions (a Versioning rule action on one that does not is a no-op). */
  keeps(doc: ContentDoc): boolean {
    return keepsVersions(this.types, doc);
  }

  plan(write: VersionedWrite): VersionRecord | null {
    if ('system' in write.author) return null;
    return versionOf(this.types, {
      kind: write.kind,
      current: write.current,
      next: write.next,
      actor: write.author.principal?.id ?? '',
      note: write.note,
      at: this.now(),
      imported: write.imported,
    });
  }

  async keepEarlier(records: VersionRecord[]): Promise<void> {
    for (const record of records) await this.archive.keep(record);
  }

  async settle(doc: ContentDoc): Promise<void> {
    const record = doc.version_pending;
    if (!record) return;
    await this.archive.keep(record);
    await this.archive.settled(doc._id, record.version);
  }

  /** Moves what a crash left pending; returns how many. */
  async sweep(): Promise<number> {
    const pending = await this.archive.unsettled();
    for (const doc of pending) await this.settle(doc);
    return pending.length;
  }

  /** The versions of an object, the one still pending (a crash, or a concurrent write) included. */
  async versionsOf(doc: ContentDoc): Promise<VersionRecord[]> {
    const kept = await this.archive.versionsOf(doc._id);
    const pending = doc.version_pending;
    if (pending && !kept.some((r) => r.version === pending.version)) kept.push(pending);
    return kept;
  }

  async versionOf(doc: ContentDoc, version: number): Promise<VersionRecord | null> {
    if (doc.version_pending?.version === version) return doc.version_pending;
    return this.archive.versionOf(doc._id, version);
  }

  async keptBlobs(doc: ContentDoc): Promise<Set<string>> {
    const records = await this.versionsOf(doc);
    return new Set(records.flatMap(versionFiles).map((file) => file.blob_id));
  }

  async forget(uids: string[]): Promise<FileValue[]> {
    return (await this.archive.forget(uids)).flatMap(versionFiles);
  }
}
