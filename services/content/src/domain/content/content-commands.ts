import { randomUUID } from 'node:crypto';
import { liveLock } from '../locks/locks';
import {
  AppError,
  badRequest,
  conflict,
  DuplicateKeyError,
  hasPermission,
  urlOf,
  type FieldError,
  type LocalRoles,
} from '@cms/shared';
import { accessFields, accessOf } from './access';
import { removeTree } from './remove-tree';
import type { Caller } from './caller';
import { addedEvent, modifiedEvent, movedEvent } from './content-events';
import {
  changesSchemaFields,
  checkInvariants,
  coreChanges,
  fieldsAfter,
  invalid,
  pick,
  replacedFiles,
  storedNames,
  type FieldValues,
} from './field-changes';
import { storedValue, valuesAfter } from './field-values';
import { StoredFile, type FileStorage, type FileValue } from '../files/files';
import type { FolderOrdering, OrderInput } from '../tree/folder-order';
import { childPath, parentPathOf, type ContentDoc, type VersionRecord, type WorkflowEntry } from './model';
import { withAlias } from '../tree/aliases';
import { storedLinks } from '../relations/links';
import { checkId, idCandidates, idFromTitle, reservedId } from '../tree/naming';
import type { ContentRepository } from './repository';
import type { SubtreeFollower } from '../tree/subtree';
import { INITIAL_STATE, SITE_ROOT_TYPE, type ContentType, type TypeRegistry } from '../types';
import { siteRootBlocks } from '../types';
import {
  SYSTEM_WRITE,
  type Change,
  type ContentWriter,
  type ImportedVersion,
  type NewObject,
  type Written,
} from './write-path';

// Look-ups (gRPC) read the snapshot from here.
export { snapshot } from './snapshot';

/** What an object imported from another site keeps of it (`importObject`). */
export interface ImportedState {
  uid: string;
  id: string;
  created?: string;
  modified?: string;
  creators: string[];
  /** A state of the type's workflow; null or absent: the initial one. */
  review_state?: string | null;
  workflow_history: WorkflowEntry[];
  local_roles: LocalRoles;
  block_local_roles: boolean;
  /** Its position among its container's items; absent: after the others. */
  position?: number;
  /** Its versions, for a type that keeps them: the earlier ones (oldest first), then its own version's metadata. */
  history?: { earlier: ImportedEarlierVersion[]; latest: ImportedVersion };
}

/** An earlier version of an imported object: its metadata and its field values as the type's schema takes them. */
export interface ImportedEarlierVersion extends ImportedVersion {
  values: FieldValues;
}

/** A PATCH of an object, checked against its type's patch schema (the API layer does that). */
export interface ContentUpdate {
  /** Field values (without `id`, which is the member below). */
  values: FieldValues;
  /** A new id: the object is renamed, its subtree follows. */
  id?: string;
  /** Re-ordering of a folder's items. */
  ordering?: OrderInput['ordering'];
  sort?: OrderInput['sort'];
}

/** An update checked in full, ready to be written: what it changes of the object. */
interface PlannedUpdate {
  type: ContentType;
  /** Names of the stored fields it sets, and their values (relations resolved, uploads not yet stored). */
  names: string[];
  changes: Record<string, unknown>;
  newId?: string;
  /** The children's UIDs in their new order. */
  order?: string[];
}

/** The objects of the tree: create, read, update (fields, rename, order of items), delete. */
export class ContentCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly files: FileStorage,
    private readonly types: TypeRegistry,
    private readonly follower: SubtreeFollower,
    private readonly ordering: FolderOrdering,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates the site root of addendum §2 on a new site; a no-op afterwards. */
  async ensureSiteRoot(title: string, siteId: string, creator: string): Promise<void> {
    if (await this.repo.byPath('/')) return;
    const at = this.now().toISOString();
    const root: ContentDoc = {
      _id: randomUUID().replace(/-/g, ''),
      path: '/',
      id: siteId,
      portal_type: SITE_ROOT_TYPE,
      parent_uid: null,
      ancestors: [],
      position: 0,
      next_position: 0,
      title,
      description: '',
      created: at,
      modified: at,
      creators: [creator],
      review_state: null,
      version: 1,
      // Its front page renders as a page: a title block and a text block (JSON fields are kept as text).
      fields: { language: 'en', ...frontPage(title) },
      local_roles: [],
      workflow_history: [],
    };
    Object.assign(root, accessFields(root, null));
    // A concurrent start of another replica may win; either root is fine. Its event is left to the relay's sweep
    // (a batch never flushed here): its consumers confirm events with this service, which does not serve yet.
    await this.writer.insert(
      { kind: 'site-root', doc: root, events: [addedEvent(root)], container: null },
      SYSTEM_WRITE,
      this.writer.deferFlushes(),
    );
  }

  async parentOf(doc: ContentDoc): Promise<ContentDoc | null> {
    return doc.parent_uid ? this.repo.byUid(doc.parent_uid) : null;
  }

  /** Adds an object of `type` with the given (schema-checked) values inside `parent`. */
  async create(
    parent: ContentDoc,
    type: ContentType,
    values: FieldValues,
    caller: Caller,
    uid?: string,
  ): Promise<{ doc: ContentDoc; parent: ContentDoc }> {
    this.checkAddable(parent, type, caller);
    if (uid !== undefined) await this.checkUidFree(uid);
    const explicitId =
      values.id !== undefined && values.id !== null ? checkId(String(values.id), parent.path ?? '/') : undefined;
    const changes = await this.resolveRelations(type, values, caller);
    checkInvariants(type, valuesAfter(null, type, changes));
    const ingested = await this.ingestFiles(type, changes);
    try {
      return { doc: await this.insert(parent, type, explicitId, changes, ingested, caller, uid), parent };
    } catch (error) {
      // Nothing refers to the new blobs: the object was not added.
      await this.files.release([...ingested.values()]);
      throw error;
    }
  }

  /** A UID given at creation must not be any object's yet (409). */
  private async checkUidFree(uid: string): Promise<void> {
    if (await this.repo.byUid(uid)) throw conflict('An object with this UID already exists');
  }

  /**
   * Adds an object that comes from another site (`ImportObject`): with its own UID, id, dates, creators, workflow
   * state and history and local roles, else as `create` does (the same checks, 409 when its id is taken).
   */
  async importObject(
    parent: ContentDoc,
    type: ContentType,
    values: FieldValues,
    imported: ImportedState,
    caller: Caller,
  ): Promise<ContentDoc> {
    this.checkAddable(parent, type, caller);
    const changes = await this.resolveRelations(type, values, caller);
    checkInvariants(type, valuesAfter(null, type, changes));
    const ingested = await this.ingestFiles(type, changes);
    const history = imported.history && {
      earlier: await this.earlierVersions(type, imported.uid, imported.history.earlier, caller),
      latest: imported.history.latest,
    };
    try {
      return await this.insert(parent, type, checkId(imported.id), changes, ingested, caller, undefined, {
        ...imported,
        history,
      });
    } catch (error) {
      await this.files.release([...ingested.values()]);
      throw error;
    }
  }

  /** An imported object's earlier versions as kept here: their content stored as the object's own is. */
  private async earlierVersions(
    type: ContentType,
    uid: string,
    earlier: ImportedEarlierVersion[],
    caller: Caller,
  ): Promise<VersionRecord[]> {
    const records: VersionRecord[] = [];
    for (const { values, ...meta } of earlier) {
      const changes = await this.resolveRelations(type, values, caller);
      records.push({
        _id: `${uid}:${meta.version}`,
        uid,
        ...meta,
        content: {
          title: typeof changes.title === 'string' ? changes.title : '',
          description: typeof changes.description === 'string' ? changes.description : '',
          effective: (changes.effective as string | null | undefined) ?? null,
          expires: (changes.expires as string | null | undefined) ?? null,
          fields: fieldsAfter(type, {}, changes, new Map()),
        },
      });
    }
    return records;
  }

  /** 401/403 unless the caller may add here; 400 when the parent's type does not take this type. */
  private checkAddable(parent: ContentDoc, type: ContentType, caller: Caller): void {
    this.writer.checkPermission(parent, 'Add portal content', caller);
    const parentType = this.types.get(parent.portal_type);
    if (!this.types.allowedIn(parentType).some((allowed) => allowed.name === type.name)) {
      const reason = parentType.folderish
        ? `not addable in a ${parentType.title}`
        : `a ${parentType.title} is not a folder`;
      throw badRequest(`Cannot add a ${type.title} here: ${reason}`, [{ field: '@type', message: reason }]);
    }
  }

  /**
   * Inserts the new object under the first free id (or the explicit one, 409 when taken); an imported one keeps
   * what `imported` gives.
   */
  private async insert(
    parent: ContentDoc,
    type: ContentType,
    explicitId: string | undefined,
    changes: Record<string, unknown>,
    ingested: Map<string, FileValue>,
    caller: Caller,
    givenUid?: string,
    imported?: Omit<ImportedState, 'history'> & { history?: NewObject['history'] },
  ): Promise<ContentDoc> {
    const uid = imported?.uid ?? givenUid ?? randomUUID().replace(/-/g, '');
    const at = this.now().toISOString();
    // Taken even for an imported position: the container's next one stays past every imported one.
    const taken = await this.repo.takeChildPosition(parent._id);
    const position = imported?.position ?? taken;
    const candidates =
      explicitId !== undefined
        ? [explicitId]
        : untakenIds(suggestedIds(type, changes, ingested), parent.path ?? '/', this.repo);
    for await (const id of candidates) {
      const created: ContentDoc = {
        _id: uid,
        path: childPath(parent.path ?? '/', id),
        id,
        portal_type: type.name,
        parent_uid: parent._id,
        ancestors: [...parent.ancestors, parent._id],
        position,
        next_position: 0,
        title: typeof changes.title === 'string' ? changes.title : '',
        description: typeof changes.description === 'string' ? changes.description : '',
        created: at,
        modified: at,
        creators: Array.isArray(changes.creators)
          ? (changes.creators as string[])
          : caller.principal
            ? [caller.principal.id]
            : [],
        review_state: type.workflow ? INITIAL_STATE : null,
        version: 1,
        effective: (changes.effective as string | null | undefined) ?? null,
        expires: (changes.expires as string | null | undefined) ?? null,
        fields: fieldsAfter(type, {}, changes, ingested),
        local_roles: caller.principal ? [{ principal: caller.principal.id, roles: ['Owner'] }] : [],
        workflow_history: type.workflow
          ? [{ action: null, actor: caller.principal?.id ?? '', comments: '', review_state: INITIAL_STATE, time: at }]
          : [],
      };
      const doc: ContentDoc = imported
        ? {
            ...created,
            created: imported.created ?? at,
            modified: imported.modified ?? at,
            creators: imported.creators,
            review_state: type.workflow ? (imported.review_state ?? INITIAL_STATE) : null,
            workflow_history: type.workflow ? imported.workflow_history : [],
            local_roles: imported.local_roles,
            block_local_roles: imported.block_local_roles,
          }
        : created;
      Object.assign(doc, accessFields(doc, parent));
      const events = [addedEvent(doc, caller.requestId)];
      const history = imported?.history;
      if (await this.writer.insert({ kind: 'create', doc, events, container: parent, history }, caller)) return doc;
      // A given UID taken meanwhile: no other id would help.
      if (givenUid !== undefined) await this.checkUidFree(givenUid);
      if (explicitId !== undefined)
        throw conflict(`An object with id "${id}" already exists in ${urlOf(caller.publicUrl, parent.path ?? '/')}`);
    }
    throw new AppError('InternalServerError', 'No free id found');
  }

  /**
   * A PATCH: changed field values, a new id, a new order of the items — all checked first (400 or 409 and
   * nothing changed), then written as one atomic write of the object with its events. After that commit
   * come the follow-ups, each finished by a sweep when cut short: the subtree of a renamed object follows
   * it, and the items take their new positions. A body that changes nothing writes nothing. Returns the
   * object as stored after its write.
   */
  async update(doc: ContentDoc, input: ContentUpdate, caller: Caller): Promise<ContentDoc> {
    const planned = await this.planUpdate(doc, input, caller);
    if (!planned) return doc;
    const ingested = await this.ingestFiles(planned.type, planned.changes);
    let written: Written;
    try {
      written = await this.writer.write(
        doc,
        {
          kind: 'update',
          permission: 'Modify portal content',
          plan: (current) => this.updateOf(current, planned, ingested, caller),
          note: typeof input.values.changeNote === 'string' ? input.values.changeNote : undefined,
        },
        caller,
      );
    } catch (error) {
      // Nothing refers to the new blobs: the write did not happen.
      await this.files.release([...ingested.values()]);
      if (error instanceof DuplicateKeyError) throw this.idTaken(doc, planned.newId ?? '', caller);
      throw error;
    }
    if (!written.changed) {
      // Nothing left to change once re-read (a concurrent write did it): the uploads are not needed.
      await this.files.release([...ingested.values()]);
      return written.after;
    }
    if (written.after.id !== written.before.id) await this.follower.follow(written.after, caller.requestId);
    if (planned.order) await this.ordering.apply(doc._id, caller.requestId);
    // The replaced blobs go only now that nothing refers to them (a version of the object may still).
    await this.files.release(
      await this.writer.unversioned(written.after, replacedFiles(written.before, written.after, this.types)),
    );
    return written.after;
  }

  /** Checks every part of an update against the object as it is; null when it changes nothing. Writes nothing. */
  private async planUpdate(doc: ContentDoc, input: ContentUpdate, caller: Caller): Promise<PlannedUpdate | null> {
    const type = this.types.get(doc.portal_type);
    let newId: string | undefined;
    if (input.id !== undefined && input.id !== doc.id) {
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be renamed');
      newId = checkId(input.id, parentPathOf(doc.path ?? '/'));
    }
    const order =
      input.ordering || input.sort
        ? await this.ordering.plan(doc, type, { ordering: input.ordering, sort: input.sort })
        : null;
    const names = storedNames(type, input.values);
    const changes = names.length ? await this.resolveRelations(type, pick(input.values, names), caller) : {};
    if (names.length) checkInvariants(type, valuesAfter(doc, type, changes));
    if (!names.length && newId === undefined && !order) return null;
    return { type, names, changes, newId, order: order ?? undefined };
  }

  /** The change an update makes to the object's current version (re-checked on it). */
  private updateOf(
    current: ContentDoc,
    { type, names, changes, newId, order }: PlannedUpdate,
    ingested: Map<string, FileValue>,
    caller: Caller,
  ): Change | null {
    const renamed = newId !== undefined && newId !== current.id;
    if (!names.length && !renamed && !order) return null;
    if (names.length && checkedOut(current, this.now())) {
      // The check-in writes the copy's fields over these: an edit here would be lost without a word.
      throw conflict(`"${current.id}" is checked out: edit its working copy, or cancel the check-out first`);
    }
    if (names.length) checkInvariants(type, valuesAfter(current, type, changes));
    const stamp = this.now().toISOString();
    const set: Partial<ContentDoc> = coreChanges(names, changes);
    if (changesSchemaFields(names)) set.fields = fieldsAfter(type, current.fields ?? {}, changes, ingested);
    if (renamed) {
      const oldPath = current.path ?? '/';
      set.id = newId;
      set.path = childPath(parentPathOf(oldPath), newId);
      Object.assign(set, withAlias(current, oldPath, stamp, false));
      // The subtree follows after the commit; the mark lets the sweep finish that after a crash.
      set.subtree_stale = stamp;
    }
    if (names.length || renamed) set.modified = stamp;
    // The items take these positions after the commit (or the sweep does it).
    if (order) set.order_pending = order;
    return {
      set,
      events: (next) => [
        ...(renamed ? [movedEvent(current, next, caller.requestId)] : []),
        ...(names.length ? [modifiedEvent(next, names, caller.requestId)] : []),
      ],
    };
  }

  private idTaken(doc: ContentDoc, id: string, caller: Caller): AppError {
    return conflict(
      `An object with id "${id}" already exists in ${urlOf(caller.publicUrl, parentPathOf(doc.path ?? '/'))}`,
    );
  }

  async remove(doc: ContentDoc, caller: Caller): Promise<void> {
    if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be deleted');
    const removal = { author: caller, requestId: caller.requestId, permission: 'Delete objects' as const };
    await removeTree(doc, removal, { repo: this.repo, writer: this.writer, files: this.files, types: this.types });
  }

  /** The objects a relation list refers to, in its order, skipping those gone since. */
  async related(doc: ContentDoc, field: string): Promise<ContentDoc[]> {
    const uids = storedValue(doc, field);
    if (!Array.isArray(uids) || !uids.length) return [];
    const found = await Promise.all(uids.map((uid) => this.repo.byUid(String(uid))));
    return found.filter((d): d is ContentDoc => d !== null);
  }

  /**
   * Relation list references (UID, URL, site path) → UIDs of existing objects the caller may view; 400 naming
   * the one that is not, in the same words whether it is missing or hidden from the caller.
   */
  private async resolveRelations(
    type: ContentType,
    values: FieldValues,
    caller: Caller,
  ): Promise<Record<string, unknown>> {
    const resolved: Record<string, unknown> = { ...values };
    const errors: FieldError[] = [];
    for (const [name, value] of Object.entries(values)) {
      if (!Array.isArray(value) || type.field(name)?.kind !== 'relationlist') continue;
      const uids: string[] = [];
      for (const [index, ref] of (value as string[]).entries()) {
        const target = await this.lookUp(ref, caller);
        if (target) uids.push(target._id);
        else errors.push({ field: `${name}.${index}`, message: `no content object "${ref}"` });
      }
      resolved[name] = [...new Set(uids)];
    }
    if (errors.length) throw invalid(errors);
    // Links to the site's objects in text, blocks and a Link's URL are stored by UID (links.ts).
    return storedLinks(type, resolved, caller.publicUrl, async (path) => (await this.repo.byPath(path))?._id ?? null);
  }

  /** The object a reference names, when the caller may view it: one hidden from the caller is as good as missing. */
  private async lookUp(ref: string, caller: Caller): Promise<ContentDoc | null> {
    const target = await this.find(ref, caller.publicUrl);
    return target && hasPermission(caller.principal, 'View', accessOf(target)) ? target : null;
  }

  private async find(ref: string, publicUrl: string): Promise<ContentDoc | null> {
    if (ref.startsWith(publicUrl + '/') || ref === publicUrl) {
      let path: string;
      try {
        path = decodeURIComponent(ref.slice(publicUrl.length)) || '/';
      } catch {
        return null; // malformed percent-encoding names nothing
      }
      return this.repo.byPath(path);
    }
    if (ref.startsWith('/')) return this.repo.byPath(ref);
    return /^[0-9a-f]{32}$/i.test(ref) ? this.repo.byUid(ref) : null;
  }

  /** Decodes and stores the uploads of a write as blobs, before the write; keyed by field name. */
  private async ingestFiles(type: ContentType, changes: Record<string, unknown>): Promise<Map<string, FileValue>> {
    const ingested = new Map<string, FileValue>();
    try {
      for (const field of type.fields) {
        const upload = changes[field.name];
        if ((field.kind === 'file' || field.kind === 'image') && upload instanceof StoredFile) {
          ingested.set(field.name, upload.value);
        } else if ((field.kind === 'file' || field.kind === 'image') && upload) {
          ingested.set(field.name, await this.files.ingest(field.kind, field.name, upload));
        }
      }
    } catch (error) {
      await this.files.release([...ingested.values()]);
      throw error;
    }
    return ingested;
  }
}

/** The site root's blocks, stored as JSON fields are (fieldsAfter). */
function frontPage(title: string): Record<string, string> {
  const { blocks, blocks_layout } = siteRootBlocks(title);
  return { blocks: JSON.stringify(blocks), blocks_layout: JSON.stringify(blocks_layout) };
}

/**
 * Ids for a new object given none, in order of preference: from its title, else from its file's name
 * (`report.pdf`, `report-1.pdf`, …), else from its type.
 */
/** Ids looked up at once: a folder of many `page-N` is passed over in a few queries, not one insert each. */
const ID_BATCH = 64;

/**
 * The candidates whose path no object holds at the moment of asking, in order, asked a batch at a time; the insert
 * itself still decides (another writer may take one meanwhile).
 */
async function* untakenIds(candidates: Iterable<string>, parentPath: string, repo: ContentRepository) {
  let batch: string[] = [];
  const flush = async function* () {
    const taken = await repo.takenPaths(batch.map((id) => childPath(parentPath, id)));
    for (const id of batch) if (!taken.has(childPath(parentPath, id)) && !reservedId(parentPath, id)) yield id;
    batch = [];
  };
  for (const id of candidates) {
    batch.push(id);
    if (batch.length === ID_BATCH) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

function suggestedIds(
  type: ContentType,
  values: Record<string, unknown>,
  files: Map<string, FileValue>,
): Iterable<string> {
  const title = typeof values.title === 'string' ? values.title : '';
  const filename = [...files.values()][0]?.filename;
  if (!title.trim() && filename && type.behaviors.includes('cms.namefromfilename')) {
    return filenameIds(filename, type.name);
  }
  return idCandidates(idFromTitle(title, type.name));
}

/** `Annual Report.PDF` → `annual-report.pdf`, then `annual-report-1.pdf`, … (the extension is kept). */
function* filenameIds(filename: string, fallback: string): Generator<string> {
  const dot = filename.lastIndexOf('.');
  const ext =
    dot > 0
      ? filename
          .slice(dot + 1)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '')
      : '';
  const suffix = ext ? `.${ext}` : '';
  for (const base of idCandidates(idFromTitle(dot > 0 ? filename.slice(0, dot) : filename, fallback))) {
    yield base + suffix;
  }
}

/** An original with a working copy: the check-out's lock (not stealable) is live on it. */
function checkedOut(doc: ContentDoc, now: Date): boolean {
  return !!doc.working_copy && liveLock(doc, now)?.stealable === false;
}
