/**
 * Working copies (`@workingcopy`): checking an object out makes a private copy beside it (`copy_of_<id>`,
 * owned by the caller) and puts a lock that is not stealable on the original; checking the copy in writes its
 * fields and files into the original (which keeps its id, UID, path and workflow state, and records a version)
 * and deletes the copy; cancelling deletes the copy. The original names its copy (`working_copy`) and the copy
 * its original (`working_copy_of`); the relation holds only while both point at each other.
 *
 * Each operation writes several documents. The original's write comes first: it is the commit point (the 409
 * of a second check-out is decided there) and records what is left to do (`iteration_pending`) with the
 * follow-up mark (`subtree_stale`), so that a crash half-way is finished by the tree sweep (subtree.ts): a
 * check-out whose copy was never made is undone, a check-in or cancel goes on to delete the copy and release
 * the blobs nothing refers to any more.
 */
import { randomUUID } from 'node:crypto';
import {
  badRequest,
  BASIC_CHALLENGE,
  conflict,
  forbidden,
  hasPermission,
  rolesHere,
  unauthorized,
  urlOf,
  type Principal__Output,
} from '@cms/shared';
import { accessFields, accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import { addedEvent, modifiedEvent } from '../content/content-events';
import { contentDate } from '../content/dates';
import { CORE_FIELDS, fileValuesOf } from '../content/field-values';
import { removeTree } from '../content/remove-tree';
import { asFileValue, type FileStorage, type FileValue } from '../files/files';
import { CHECKOUT_LOCK, holds, liveLock, lockedError, newLock, NEVER_EXPIRES_S } from '../locks/locks';
import { childPath, type ContentDoc, type PendingIteration } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { PrincipalDirectory } from '../sharing/sharing-commands';
import type { FollowUp, SubtreeFollower } from '../tree/subtree';
import { INITIAL_STATE, SITE_ROOT_TYPE, type TypeRegistry } from '../types';
import { SYSTEM_WRITE, type Change, type ContentWriter, type Written } from '../content/write-path';

/**
 * Who may check an object out, and check its copy in: the roles of the original platform's "iterate : Check
 * out content" and "iterate : Check in content", held on the original. No workflow state manages these, so an
 * editor may check out a published page (that is what working copies are for).
 */
const ITERATE_ROLES = ['Manager', 'Site Administrator', 'Editor', 'Owner'];

/** `working_copy` (Working copy reference) and `working_copy_of` (`{@id, title}`) of the specification. */
export interface WorkingCopyReferences {
  working_copy: WorkingCopyReference | null;
  working_copy_of: { '@id': string; title: string } | null;
}

export interface WorkingCopyReference {
  '@id': string;
  created: string;
  creator_name: string;
  creator_url: string;
  title: string;
}

const NO_REFERENCES: WorkingCopyReferences = { working_copy: null, working_copy_of: null };

/** An original and its working copy, each pointing at the other. */
interface CheckOut {
  original: ContentDoc;
  copy: ContentDoc;
}

export class WorkingCopies implements FollowUp {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly follower: SubtreeFollower,
    private readonly files: Pick<FileStorage, 'duplicate' | 'release'>,
    private readonly types: TypeRegistry,
    private readonly directory: PrincipalDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * `POST @workingcopy`: checks `original` out for the caller; returns the working copy. 409 when it is
   * checked out already, or is itself a working copy.
   */
  async checkOut(original: ContentDoc, caller: Caller): Promise<ContentDoc> {
    const type = this.types.get(original.portal_type);
    if (original.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be checked out');
    if (type.folderish) throw badRequest(`A ${type.title} cannot be checked out: folders have no working copies`);
    if (await this.isWorkingCopy(original)) {
      throw conflict(`"${original.id}" is a working copy: check it in or cancel it first`);
    }
    // Refused before any blob is duplicated, and again on the version written.
    await this.refuseCheckOut(original, caller);
    const parent = original.parent_uid ? await this.repo.byUid(original.parent_uid) : null;
    if (!parent) throw conflict(`"${original.id}" is being moved or removed; try again`);
    // The copy is added to the folder: a role on the original alone (a local Editor) does not let one put it there.
    // Who may add to the folder may, and so may who may edit it (an Editor there, as the original platform allows).
    try {
      this.writer.checkPermission(parent, 'Modify portal content', caller);
    } catch {
      this.writer.checkPermission(parent, 'Add portal content', caller);
    }
    const uid = randomUUID().replace(/-/g, '');
    // The copy's own blobs, made first so that the check-out's record names them (an undone check-out frees them).
    const fields = await this.duplicateFields(original);
    let written: Written;
    try {
      written = await this.writer.write(
        original,
        {
          // A lock write: the check-out takes its lock here, applying the lock rules itself.
          kind: 'lock',
          permission: 'View',
          plan: (current) => this.checkOutChange(current, original, uid, filesIn(fields), caller),
        },
        caller,
      );
    } catch (error) {
      await this.files.release(filesIn(fields));
      throw error;
    }
    let copy: ContentDoc;
    try {
      copy = await this.insertCopy(written.after, parent, uid, fields, caller);
    } catch (error) {
      // Without its copy the check-out is undone (by the sweep, if this fails too).
      await this.finish(written.after, caller.requestId).catch(() => undefined);
      throw error;
    }
    await this.finish(written.after, caller.requestId);
    const after = await this.repo.byUid(original._id);
    if (after?.working_copy?.uid !== uid) {
      // Undone by a sweep while this request stalled: the copy belongs to no check-out.
      await this.removeCopy(uid, caller.requestId);
      throw conflict(`The check-out of "${original.id}" took too long and was undone; try again`);
    }
    return copy;
  }

  /**
   * `PATCH @workingcopy`, on either side: the original takes the copy's fields and files (keeping its id, UID,
   * path and workflow state; a version with `message` as its comment), loses the check-out's lock, and the copy
   * is deleted. Needs the check-in roles on the original.
   */
  async checkIn(context: ContentDoc, message: string | undefined, caller: Caller): Promise<void> {
    const { original, copy } = await this.requireCheckOut(context, caller);
    requireIterate(caller, original, 'check in');
    refuseLocked(copy, caller, this.now());
    const carried = await this.duplicateFields(copy);
    let after: ContentDoc;
    try {
      const written = await this.writer.write(
        original,
        {
          kind: 'checkin',
          permission: 'View',
          note: message,
          plan: (current) => this.checkInChange(current, copy, carried, caller),
        },
        caller,
      );
      after = written.after;
    } catch (error) {
      // Nothing refers to the duplicated blobs: the original was not written.
      await this.files.release(filesIn(carried));
      throw error;
    }
    await this.finish(after, caller.requestId);
  }

  /**
   * `DELETE @workingcopy` on either side, or deleting the working copy: the copy goes, the original is released.
   * Whoever may check in may cancel, and so may whoever may delete the copy (its owner).
   */
  async cancel(context: ContentDoc, caller: Caller): Promise<void> {
    const { original, copy } = await this.requireCheckOut(context, caller);
    if (!mayIterate(caller.principal, original) && !hasPermission(caller.principal, 'Delete objects', accessOf(copy))) {
      requireIterate(caller, original, 'cancel the check-out of');
    }
    refuseLocked(copy, caller, this.now());
    const written = await this.writer.write(
      original,
      {
        // A lock write: the check-out's lock is released here.
        kind: 'lock',
        permission: 'View',
        plan: (current) => {
          this.stillCheckedOut(current, copy);
          const stamp = this.now().toISOString();
          const pending: PendingIteration = { op: 'cancel', copy: copy._id, release: this.filesOf(copy) };
          return {
            set: { iteration_pending: pending, subtree_stale: stamp },
            unset: releasedMembers(current),
            events: () => [],
          };
        },
      },
      caller,
    );
    await this.finish(written.after, caller.requestId);
  }

  /** Whether `doc` is a working copy (deleting it cancels its check-out). */
  async isWorkingCopy(doc: ContentDoc): Promise<boolean> {
    return !!doc.working_copy_of && (await this.checkOutOf(doc))?.copy._id === doc._id;
  }

  /**
   * `working_copy` and `working_copy_of` of either side, as `GET @workingcopy` and the content GET show them:
   * only to those who may work on it (as the original platform), null for everyone else.
   */
  async references(doc: ContentDoc, caller: Caller): Promise<WorkingCopyReferences> {
    if (!doc.working_copy && !doc.working_copy_of) return NO_REFERENCES;
    const checkOut = await this.checkOutOf(doc);
    if (!checkOut || !mayKnow(caller.principal, checkOut)) return NO_REFERENCES;
    const { original, copy } = checkOut;
    const creator = original.working_copy!.creator;
    const [holder] = await this.directory.describe([creator], caller.requestId);
    return {
      working_copy: {
        '@id': urlOf(caller.publicUrl, copy.path ?? '/'),
        created: contentDate(copy.created),
        creator_name: holder?.title || creator,
        creator_url: urlOf(caller.publicUrl, `/author/${creator}`),
        title: copy.title,
      },
      working_copy_of:
        doc._id === copy._id ? { '@id': urlOf(caller.publicUrl, original.path ?? '/'), title: original.title } : null,
    };
  }

  /** FollowUp: whether `doc` has a check-out, check-in or cancel to finish. */
  pending(doc: ContentDoc): boolean {
    return doc.iteration_pending !== undefined;
  }

  /**
   * FollowUp: finishes what the original's write recorded (idempotent; the request itself runs it, and the
   * sweep after a crash): a check-out keeps its copy or, without one, is undone; a check-in or cancel deletes
   * the copy and releases the blobs. Then the mark goes.
   */
  async finish(doc: ContentDoc, requestId: string): Promise<void> {
    const pending = doc.iteration_pending;
    if (pending?.op === 'checkout') {
      const made = (await this.repo.byUid(pending.copy))?.working_copy_of === doc._id;
      await this.settle(doc, pending, made ? [] : ['working_copy', 'lock']);
      // Undone: no copy refers to the blobs made for it.
      if (!made) await this.files.release(pending.release);
    } else if (pending) {
      await this.removeCopy(pending.copy, requestId);
      const current = (await this.repo.byUid(doc._id)) ?? doc;
      // A version of the original may still refer to a blob the check-in replaced: that one stays.
      await this.files.release(await this.writer.unversioned(current, pending.release));
      await this.settle(doc, pending, []);
    }
    await this.follower.follow(doc, requestId);
  }

  /** The check-out `doc` takes part in, on either side, when both sides point at each other. */
  private async checkOutOf(doc: ContentDoc): Promise<CheckOut | null> {
    if (doc.working_copy) {
      const copy = await this.repo.byUid(doc.working_copy.uid);
      return copy?.working_copy_of === doc._id ? { original: doc, copy } : null;
    }
    if (doc.working_copy_of) {
      const original = await this.repo.byUid(doc.working_copy_of);
      return original?.working_copy?.uid === doc._id ? { original, copy: doc } : null;
    }
    return null;
  }

  /** The check-out of `context`; 400 when there is none (after the caller's right to ask was checked). */
  private async requireCheckOut(context: ContentDoc, caller: Caller): Promise<CheckOut> {
    const checkOut = await this.checkOutOf(context);
    if (checkOut) return checkOut;
    requireIterate(caller, context, 'check in or cancel');
    throw badRequest(`"${context.id}" is not checked out, nor a working copy`);
  }

  /** 401/403/409 unless the caller may check `current` out now. */
  private async refuseCheckOut(current: ContentDoc, caller: Caller): Promise<void> {
    requireIterate(caller, current, 'check out');
    if (current.iteration_pending) throw conflict(`"${current.id}" is being checked out or in; try again`);
    const existing = current.working_copy ? await this.checkOutOf(current) : null;
    if (existing) {
      const url = urlOf(caller.publicUrl, existing.copy.path ?? '/');
      throw conflict(`"${current.id}" is checked out already: its working copy is ${url}`);
    }
    const lock = liveLock(current, this.now());
    // A check-out lock left without its copy (the copy was removed with a folder) is no check-out any more.
    const left = lock?.name === CHECKOUT_LOCK && current.working_copy !== undefined;
    if (lock && !left && !holds(lock, caller)) throw lockedError(current, lock);
  }

  /** The original's write of a check-out, planned from its current version. */
  private async checkOutChange(
    current: ContentDoc,
    read: ContentDoc,
    uid: string,
    copyFiles: FileValue[],
    caller: Caller,
  ): Promise<Change> {
    await this.refuseCheckOut(current, caller);
    // The copy is made of the version read (its blobs are duplicated already).
    if (current.version !== read.version) throw conflict(`"${current.id}" changed while being checked out; try again`);
    const now = this.now();
    const creator = caller.principal?.id ?? '';
    const stamp = now.toISOString();
    const pending: PendingIteration = { op: 'checkout', copy: uid, release: copyFiles };
    return {
      set: {
        lock: newLock(creator, { stealable: false, timeout: NEVER_EXPIRES_S, name: CHECKOUT_LOCK }, now),
        working_copy: { uid, creator },
        iteration_pending: pending,
        subtree_stale: stamp,
      },
      events: () => [],
    };
  }

  /** The working copy of `original` (as its check-out wrote it) beside it, under the first free `copy…_of_<id>`. */
  private async insertCopy(
    original: ContentDoc,
    parent: ContentDoc,
    uid: string,
    fields: Record<string, unknown>,
    caller: Caller,
  ): Promise<ContentDoc> {
    const type = this.types.get(original.portal_type);
    const owner = caller.principal?.id ?? '';
    const at = this.now().toISOString();
    const position = await this.repo.takeChildPosition(parent._id);
    for (const id of copyIds(original.id)) {
      const copy: ContentDoc = {
        ...ownContent(original),
        _id: uid,
        id,
        path: childPath(parent.path ?? '/', id),
        parent_uid: parent._id,
        ancestors: [...parent.ancestors, parent._id],
        position,
        // As the original platform: the copy keeps the original's creation date (its reference's `created`).
        created: original.created,
        modified: at,
        version: 1,
        review_state: type.workflow ? INITIAL_STATE : null,
        workflow_history: type.workflow
          ? [{ action: null, actor: owner, comments: '', review_state: INITIAL_STATE, time: at }]
          : [],
        local_roles: [
          ...(original.local_roles ?? []).filter((g) => !g.roles.includes('Owner')),
          { principal: owner, roles: ['Owner'] },
        ],
        aliases: [],
        fields,
        working_copy_of: original._id,
      };
      Object.assign(copy, accessFields(copy, parent));
      const event = addedEvent(copy, caller.requestId);
      // The caller's right to put it in the folder was checked before the check-out.
      if (await this.writer.insert({ kind: 'copy', doc: copy, events: [event], container: parent }, SYSTEM_WRITE)) {
        return copy;
      }
    }
    throw conflict(`No free id for the working copy of "${original.id}"`);
  }

  /** The original's write of a check-in: the copy's fields and files, the check-out gone, the copy to delete. */
  private checkInChange(
    current: ContentDoc,
    copy: ContentDoc,
    carried: Record<string, unknown>,
    caller: Caller,
  ): Change {
    this.stillCheckedOut(current, copy);
    requireIterate(caller, current, 'check in');
    const lock = liveLock(current, this.now());
    // The check-out's own lock ends here; any other lock is kept, and stops all but its holder.
    if (lock && lock.name !== CHECKOUT_LOCK && !holds(lock, caller)) throw lockedError(current, lock);
    const stamp = this.now().toISOString();
    const content: Partial<ContentDoc> = {
      title: copy.title,
      description: copy.description,
      creators: copy.creators,
      effective: copy.effective ?? null,
      expires: copy.expires ?? null,
      fields: carried,
    };
    const kept = new Set(Object.values(carried).flatMap((v) => asFileValue(v)?.blob_id ?? []));
    const replaced = this.filesOf(current).filter((file) => !kept.has(file.blob_id));
    const pending: PendingIteration = { op: 'checkin', copy: copy._id, release: [...this.filesOf(copy), ...replaced] };
    const changed = changedFields(current, content);
    return {
      set: { ...content, modified: stamp, iteration_pending: pending, subtree_stale: stamp },
      unset: releasedMembers(current),
      events: (next) => (changed.length ? [modifiedEvent(next, changed, caller.requestId)] : []),
    };
  }

  /** 409 unless `current` is still checked out to `copy` with nothing under way. */
  private stillCheckedOut(current: ContentDoc, copy: ContentDoc): void {
    if (current.working_copy?.uid !== copy._id || current.iteration_pending) {
      throw conflict(`The check-out of "${current.id}" changed meanwhile; try again`);
    }
  }

  /** Clears the pending record (and, undoing a check-out, `undo` with it) if it is still the one finished. */
  private async settle(doc: ContentDoc, pending: PendingIteration, undo: ('working_copy' | 'lock')[]): Promise<void> {
    await this.writer.write(
      doc,
      {
        kind: 'lock',
        plan: (current) => {
          const same = current.iteration_pending?.op === pending.op && current.iteration_pending.copy === pending.copy;
          if (!same) return null;
          const unset: (keyof ContentDoc)[] = ['iteration_pending'];
          if (undo.includes('working_copy') && current.working_copy?.uid === pending.copy) unset.push('working_copy');
          if (undo.includes('lock') && current.lock?.name === CHECKOUT_LOCK) unset.push('lock');
          return { set: {}, unset, events: () => [] };
        },
      },
      SYSTEM_WRITE,
    );
  }

  /** Deletes the working copy (a system write: the check-in or cancel was the write allowed), with its blobs. */
  private async removeCopy(uid: string, requestId: string): Promise<void> {
    const copy = await this.repo.byUid(uid);
    if (!copy) return;
    const using = { repo: this.repo, writer: this.writer, files: this.files, types: this.types };
    await removeTree(copy, { author: SYSTEM_WRITE, requestId }, using);
  }

  /** The object's schema fields, each file and image with a blob of its own (a copy owns its blobs). */
  private async duplicateFields(doc: ContentDoc): Promise<Record<string, unknown>> {
    const fields: Record<string, unknown> = {};
    const made: FileValue[] = [];
    try {
      for (const [name, value] of Object.entries(doc.fields ?? {})) {
        const file = asFileValue(value);
        fields[name] = file ? await this.files.duplicate(file) : value;
        if (file) made.push(fields[name] as FileValue);
      }
    } catch (error) {
      await this.files.release(made);
      throw error;
    }
    return fields;
  }

  private filesOf(doc: ContentDoc): FileValue[] {
    return fileValuesOf(doc, this.types);
  }
}

/** Whether the caller holds one of the check-out and check-in roles on `doc`. */
function mayIterate(principal: Principal__Output | null, doc: ContentDoc): boolean {
  const roles = rolesHere(principal, doc.effective_local_roles ?? []);
  return ITERATE_ROLES.some((role) => roles.has(role));
}

/** 401 (with a challenge) for anonymous callers, 403 for the others, unless the caller may `action` `doc`. */
function requireIterate(caller: Caller, doc: ContentDoc, action: string): void {
  if (mayIterate(caller.principal, doc)) return;
  if (!caller.principal) throw unauthorized(`Authentication required to ${action} "${doc.id}"`, BASIC_CHALLENGE);
  throw forbidden(`You may not ${action} "${doc.id}"`);
}

/** Who is told about a check-out: those who may check out or edit either side (as the original platform). */
function mayKnow(principal: Principal__Output | null, { original, copy }: CheckOut): boolean {
  return [original, copy].some(
    (doc) => mayIterate(principal, doc) || hasPermission(principal, 'Modify portal content', accessOf(doc)),
  );
}

/** 403 when someone else holds a live lock on `doc` (the copy: it is deleted, so it must be free). */
function refuseLocked(doc: ContentDoc, caller: Caller, now: Date): void {
  const lock = liveLock(doc, now);
  if (lock && !holds(lock, caller)) throw lockedError(doc, lock);
}

/** What a check-in or cancel removes from the original: the relation, and the check-out's lock (no other). */
function releasedMembers(current: ContentDoc): (keyof ContentDoc)[] {
  return current.lock?.name === CHECKOUT_LOCK ? ['working_copy', 'lock'] : ['working_copy'];
}

/** The names of the fields a check-in changes, for its event. */
function changedFields(current: ContentDoc, content: Partial<ContentDoc>): string[] {
  const core = [...CORE_FIELDS].filter(
    (name) =>
      name in content &&
      JSON.stringify(current[name as keyof ContentDoc] ?? null) !==
        JSON.stringify(content[name as keyof ContentDoc] ?? null),
  );
  const before = current.fields ?? {};
  const after = content.fields ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
  return [...core, ...fields];
}

/** The original's content for its copy: without its bookkeeping, lock, history or relations. */
function ownContent(doc: ContentDoc): ContentDoc {
  const copy = { ...doc };
  for (const member of [
    '_outbox',
    '_pending',
    'subtree_stale',
    'order_pending',
    'transition_pending',
    'lock',
    'last_version',
    'version_pending',
    'working_copy',
    'working_copy_of',
    'iteration_pending',
    'translation_group',
  ] as const) {
    delete copy[member];
  }
  return copy;
}

/** The file and image values among an object's fields. */
function filesIn(fields: Record<string, unknown>): FileValue[] {
  return Object.values(fields).flatMap((value) => asFileValue(value) ?? []);
}

/** `copy_of_<id>`, `copy2_of_<id>`, … (the names the original platform gives a working copy). */
function* copyIds(id: string): Generator<string> {
  yield `copy_of_${id}`;
  for (let n = 2; ; n++) yield `copy${n}_of_${id}`;
}
