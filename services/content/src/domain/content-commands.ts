import { randomUUID } from 'node:crypto';
import {
  AppError,
  badRequest,
  conflict,
  newEvent,
  notFound,
  type ContentSnapshot,
  type FieldError,
  type Principal__Output,
  type Upload,
  urlOf,
} from '@cms/shared';
import { accessFields, authorize } from './access';
import { CORE_FIELDS, fileValuesOf, searchableText, storedValue, valuesAfter } from './field-values';
import type { FileStorage, FileValue } from './files';
import { childPath, MAX_WRITE_ATTEMPTS, parentPathOf, type ContentDoc } from './model';
import { checkId, idCandidates, idFromTitle } from './naming';
import type { ContentRepository, EventRelay } from './repository';
import { allowedTypesIn, contentType, INITIAL_STATE, SITE_ROOT_TYPE, type ContentType } from './types';

/** Validated, normalized field values of a write (output of the type's create or patch schema). */
export type FieldValues = Readonly<Record<string, unknown>>;

export interface Caller {
  principal: Principal__Output | null;
  requestId: string;
  publicUrl: string;
}

/** Members of a write body that are not stored as fields. */
const NOT_STORED = new Set(['@type', 'id']);

export class ContentCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
    private readonly files: FileStorage,
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
      fields: { language: 'en' },
      local_roles: [],
      workflow_history: [],
    };
    Object.assign(root, accessFields(root, null));
    // A concurrent start of another replica may win; either root is fine.
    await this.repo.insertNew(root, newEvent('content.added', { uid: root._id, version: 1, snapshot: snapshot(root) }));
    await this.relay.flush(root._id);
  }

  /** The object at a path, or 404 naming the nearest existing ancestor as `context`. */
  async find(path: string, publicUrl: string): Promise<ContentDoc> {
    const doc = await this.repo.byPath(path);
    if (doc) return doc;
    let ancestor = parentPathOf(path);
    while (ancestor !== '/' && !(await this.repo.byPath(ancestor))) ancestor = parentPathOf(ancestor);
    throw notFound(`Resource not found: ${urlOf(publicUrl, path)}`, { context: urlOf(publicUrl, ancestor) });
  }

  async parentOf(doc: ContentDoc): Promise<ContentDoc | null> {
    return doc.parent_uid ? this.repo.byUid(doc.parent_uid) : null;
  }

  /** Adds an object of `type` with the given (schema-checked) values inside the folder at `containerPath`. */
  async create(
    containerPath: string,
    type: ContentType,
    values: FieldValues,
    caller: Caller,
  ): Promise<{ doc: ContentDoc; parent: ContentDoc }> {
    const parent = await this.find(containerPath, caller.publicUrl);
    authorize(caller.principal, 'Add portal content', parent);
    const parentType = contentType(parent.portal_type);
    if (!allowedTypesIn(parentType).includes(type)) {
      const reason = parentType.folderish
        ? `not addable in a ${parentType.title}`
        : `a ${parentType.title} is not a folder`;
      throw badRequest(`Cannot add a ${type.title} here: ${reason}`, [{ field: '@type', message: reason }]);
    }
    const explicitId = values.id !== undefined && values.id !== null ? checkId(String(values.id)) : undefined;
    const changes = await this.resolveRelations(type, values, caller);
    checkInvariants(type, valuesAfter(null, type, changes));
    const ingested = await this.ingestFiles(type, changes);
    let doc: ContentDoc;
    try {
      doc = await this.insert(parent, type, explicitId, changes, ingested, caller);
    } catch (error) {
      // Nothing refers to the new blobs: the object was not added.
      await this.files.release([...ingested.values()]);
      throw error;
    }
    await this.relay.flush(doc._id);
    return { doc, parent };
  }

  /** Inserts the new object under the first free id (or the explicit one, 409 when taken). */
  private async insert(
    parent: ContentDoc,
    type: ContentType,
    explicitId: string | undefined,
    changes: Record<string, unknown>,
    ingested: Map<string, FileValue>,
    caller: Caller,
  ): Promise<ContentDoc> {
    const uid = randomUUID().replace(/-/g, '');
    const at = this.now().toISOString();
    const position = await this.repo.takeChildPosition(parent._id);
    const candidates = explicitId !== undefined ? [explicitId] : suggestedIds(type, changes, ingested);
    for (const id of candidates) {
      const doc: ContentDoc = {
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
        fields: nextFields(type, {}, changes, ingested),
        local_roles: caller.principal ? [{ principal: caller.principal.id, roles: ['Owner'] }] : [],
        workflow_history: type.workflow
          ? [{ action: null, actor: caller.principal?.id ?? '', comments: '', review_state: INITIAL_STATE, time: at }]
          : [],
      };
      Object.assign(doc, accessFields(doc, parent));
      const event = newEvent('content.added', { uid, version: 1, snapshot: snapshot(doc) }, caller.requestId);
      if (await this.repo.insertNew(doc, event)) return doc;
      if (explicitId !== undefined)
        throw conflict(`An object with id "${id}" already exists in ${urlOf(caller.publicUrl, parent.path ?? '/')}`);
    }
    throw new AppError('InternalServerError', 'No free id found');
  }

  /**
   * Writes changed field values (schema-checked, without `id`: a rename is the tree's) to an object;
   * returns it as stored afterwards. A body that changes nothing writes nothing.
   */
  async update(initial: ContentDoc, values: FieldValues, caller: Caller): Promise<ContentDoc> {
    authorize(caller.principal, 'Modify portal content', initial);
    const type = contentType(initial.portal_type);
    const names = Object.keys(values).filter(
      (name) => values[name] !== undefined && !NOT_STORED.has(name) && !type.field(name)?.transient,
    );
    if (!names.length) return initial;
    const changes = await this.resolveRelations(type, pick(values, names), caller);
    checkInvariants(type, valuesAfter(initial, type, changes));
    const ingested = await this.ingestFiles(type, changes);
    let written: { before: ContentDoc; after: ContentDoc };
    try {
      written = await this.writeChanges(initial, type, names, changes, ingested, caller);
    } catch (error) {
      // Nothing refers to the new blobs: the write did not happen.
      await this.files.release([...ingested.values()]);
      throw error;
    }
    await this.relay.flush(initial._id);
    // The replaced blobs go only now that nothing refers to them.
    await this.files.release(replacedFiles(written.before, written.after));
    return written.after;
  }

  /** One optimistic write of `changes`, re-applied on a newer version when another write got in first. */
  private async writeChanges(
    initial: ContentDoc,
    type: ContentType,
    names: string[],
    changes: Record<string, unknown>,
    ingested: Map<string, FileValue>,
    caller: Caller,
  ): Promise<{ before: ContentDoc; after: ContentDoc }> {
    let doc: ContentDoc | null = initial;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS && doc; attempt++) {
      if (attempt > 0) {
        authorize(caller.principal, 'Modify portal content', doc);
        checkInvariants(type, valuesAfter(doc, type, changes));
      }
      const set: Partial<ContentDoc> = {};
      for (const name of names) {
        if (CORE_FIELDS.has(name)) (set as Record<string, unknown>)[name] = changes[name] ?? coreDefault(name);
      }
      if (names.some((name) => !CORE_FIELDS.has(name))) {
        set.fields = nextFields(type, doc.fields ?? {}, changes, ingested);
      }
      set.modified = this.now().toISOString();
      set.version = doc.version + 1;
      const next: ContentDoc = { ...doc, ...set };
      const event = newEvent(
        'content.modified',
        { uid: doc._id, version: next.version, changed: names, snapshot: snapshot(next) },
        caller.requestId,
      );
      const after = await this.repo.updateFields(doc._id, doc.version, set, event);
      if (after) return { before: doc, after };
      doc = await this.repo.byUid(initial._id);
    }
    if (!doc) throw notFound(`Resource not found: ${urlOf(caller.publicUrl, initial.path ?? '/')}`);
    throw conflict('The object is being changed by others; try again');
  }

  async remove(path: string, caller: Caller): Promise<void> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const doc = await this.find(path, caller.publicUrl);
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be deleted');
      authorize(caller.principal, 'Delete objects', doc);
      const below = await this.repo.descendants(doc._id);
      const removed = [doc._id, ...below.map((d) => d._id)];
      const event = newEvent(
        'content.removed',
        { uid: doc._id, version: doc.version + 1, path, removed_uids: removed },
        caller.requestId,
      );
      if (await this.repo.tombstone(doc._id, doc.version, event)) {
        await this.repo.deleteDescendants(doc._id);
        await this.relay.flush(doc._id);
        await this.files.release([doc, ...below].flatMap(fileValuesOf));
        return;
      }
    }
    throw conflict('The object is being changed by others; try again');
  }

  /** The objects a relation list refers to, in its order, skipping those gone since. */
  async related(doc: ContentDoc, field: string): Promise<ContentDoc[]> {
    const uids = storedValue(doc, field);
    if (!Array.isArray(uids) || !uids.length) return [];
    const found = await Promise.all(uids.map((uid) => this.repo.byUid(String(uid))));
    return found.filter((d): d is ContentDoc => d !== null);
  }

  /** Relation list references (UID, URL, site path) → UIDs of existing objects; 400 naming the one that is not. */
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
        const target = await this.lookUp(ref, caller.publicUrl);
        if (target) uids.push(target._id);
        else errors.push({ field: `${name}.${index}`, message: `no content object "${ref}"` });
      }
      resolved[name] = [...new Set(uids)];
    }
    if (errors.length) throw invalid(errors);
    return resolved;
  }

  private async lookUp(ref: string, publicUrl: string): Promise<ContentDoc | null> {
    if (ref.startsWith(publicUrl + '/') || ref === publicUrl) {
      return this.repo.byPath(decodeURIComponent(ref.slice(publicUrl.length)) || '/');
    }
    if (ref.startsWith('/')) return this.repo.byPath(ref);
    return /^[0-9a-f]{32}$/i.test(ref) ? this.repo.byUid(ref) : null;
  }

  /** Stores the uploads of a write, before the write; keyed by field name. */
  private async ingestFiles(type: ContentType, changes: Record<string, unknown>): Promise<Map<string, FileValue>> {
    const ingested = new Map<string, FileValue>();
    try {
      for (const field of type.fields) {
        const upload = changes[field.name];
        if ((field.kind === 'file' || field.kind === 'image') && upload) {
          ingested.set(field.name, await this.files.ingest(field.kind, field.name, upload as Upload));
        }
      }
    } catch (error) {
      await this.files.release([...ingested.values()]);
      throw error;
    }
    return ingested;
  }
}

function pick(values: FieldValues, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((n) => [n, values[n]]));
}

function coreDefault(name: string): unknown {
  if (name === 'title' || name === 'description') return '';
  if (name === 'creators') return [];
  return null;
}

/** `doc.fields` after a write: set values replace, null unsets, uploads become their stored FileValue. */
function nextFields(
  type: ContentType,
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
  ingested: Map<string, FileValue>,
): Record<string, unknown> {
  const fields = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || CORE_FIELDS.has(name) || NOT_STORED.has(name)) continue;
    const field = type.field(name);
    if (field?.transient) continue;
    if (value === null) delete fields[name];
    else if (ingested.has(name)) fields[name] = ingested.get(name);
    // JSON values may hold keys the store does not allow (`$x`, `a.b`): kept as text.
    else if (field?.kind === 'json') fields[name] = JSON.stringify(value);
    else fields[name] = value;
  }
  return fields;
}

/** Blobs the old version held that the new one no longer does. */
function replacedFiles(before: ContentDoc, after: ContentDoc): FileValue[] {
  const kept = new Set(fileValuesOf(after).map((v) => v.blob_id));
  return fileValuesOf(before).filter((v) => !kept.has(v.blob_id));
}

function checkInvariants(type: ContentType, values: Record<string, unknown>): void {
  const errors = type.invariants?.(values) ?? [];
  if (errors.length) throw invalid(errors);
}

/** 400 with per-field errors, worded like a schema mismatch. */
function invalid(errors: FieldError[]): AppError {
  return badRequest(`Invalid request: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, errors);
}

/**
 * Ids for a new object given none, in order of preference: from its title, else from its file's name
 * (`report.pdf`, `report-1.pdf`, …), else from its type.
 */
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

/** What events and look-ups carry of an object. */
export function snapshot(doc: ContentDoc): ContentSnapshot {
  const type = contentType(doc.portal_type);
  const subjects = doc.fields?.subjects;
  const language = doc.fields?.language;
  return {
    uid: doc._id,
    path: doc.path ?? '',
    id: doc.id,
    portal_type: doc.portal_type,
    type_title: type.title,
    title: doc.title,
    description: doc.description,
    review_state: doc.review_state,
    version: doc.version,
    created: doc.created,
    modified: doc.modified,
    creators: doc.creators,
    parent_uid: doc.parent_uid ?? '',
    is_folderish: type.folderish,
    position: doc.position,
    searchable_text: searchableText(doc, type),
    allowed_roles_and_users: doc.allowed ?? [],
    subjects: Array.isArray(subjects) ? (subjects as string[]) : [],
    effective: doc.effective ?? null,
    expires: doc.expires ?? null,
    exclude_from_nav: doc.fields?.exclude_from_nav === true,
    language: typeof language === 'string' ? language : '',
  };
}
