import { randomUUID } from 'node:crypto';
import {
  AppError,
  badRequest,
  conflict,
  newEvent,
  notFound,
  type ContentSnapshot,
  type Principal__Output,
  urlOf,
} from '@cms/shared';
import { accessFields, authorize } from './access';
import { childPath, MAX_WRITE_ATTEMPTS, parentPathOf, type ContentDoc } from './model';
import { checkId, idCandidates, idFromTitle } from './naming';
import type { ContentRepository, EventRelay } from './repository';
import { contentType, CONTENT_TYPES, INITIAL_STATE, SITE_ROOT_TYPE } from './types';

export interface NewContent {
  '@type': string;
  id?: string;
  title: string;
  description: string;
}

export interface ContentChanges {
  title?: string;
  description?: string;
}

export interface Caller {
  principal: Principal__Output | null;
  requestId: string;
  publicUrl: string;
}

export class ContentCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
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
      local_roles: [],
      workflow_history: [],
    };
    Object.assign(root, accessFields(root, []));
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

  async create(
    containerPath: string,
    input: NewContent,
    caller: Caller,
  ): Promise<{ doc: ContentDoc; parent: ContentDoc }> {
    const parent = await this.find(containerPath, caller.publicUrl);
    authorize(caller.principal, 'Add portal content', parent);
    const parentType = contentType(parent.portal_type);
    if (!parentType.folderish) throw badRequest(`Cannot add content to a ${parentType.title}: it is not a folder`);
    const type = CONTENT_TYPES[input['@type']];
    if (!type?.addable)
      throw badRequest(`Type "${input['@type']}" cannot be added here`, [
        { field: '@type', message: 'not addable here' },
      ]);

    const uid = randomUUID().replace(/-/g, '');
    const at = this.now().toISOString();
    const position = await this.repo.takeChildPosition(parent._id);
    const candidates = input.id !== undefined ? [checkId(input.id)] : idCandidates(idFromTitle(input.title, type.name));
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
        title: input.title,
        description: input.description,
        created: at,
        modified: at,
        creators: caller.principal ? [caller.principal.id] : [],
        review_state: type.workflow ? INITIAL_STATE : null,
        version: 1,
        effective: null,
        expires: null,
        local_roles: caller.principal ? [{ principal: caller.principal.id, roles: ['Owner'] }] : [],
        workflow_history: type.workflow
          ? [{ action: null, actor: caller.principal?.id ?? '', comments: '', review_state: INITIAL_STATE, time: at }]
          : [],
      };
      Object.assign(doc, accessFields(doc, parent.effective_local_roles ?? []));
      const event = newEvent('content.added', { uid, version: 1, snapshot: snapshot(doc) }, caller.requestId);
      if (await this.repo.insertNew(doc, event)) {
        await this.relay.flush(uid);
        return { doc, parent };
      }
      if (input.id !== undefined)
        throw conflict(`An object with id "${id}" already exists in ${urlOf(caller.publicUrl, parent.path ?? '/')}`);
    }
    throw new AppError('InternalServerError', 'No free id found');
  }

  async update(path: string, changes: ContentChanges, caller: Caller): Promise<ContentDoc> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const doc = await this.find(path, caller.publicUrl);
      authorize(caller.principal, 'Modify portal content', doc);
      const changed = Object.keys(changes).filter((k) => changes[k as keyof ContentChanges] !== undefined);
      const next: ContentDoc = {
        ...doc,
        ...definedOnly(changes),
        modified: this.now().toISOString(),
        version: doc.version + 1,
      };
      const event = newEvent(
        'content.modified',
        { uid: doc._id, version: next.version, changed, snapshot: snapshot(next) },
        caller.requestId,
      );
      const updated = await this.repo.updateFields(
        doc._id,
        doc.version,
        { ...definedOnly(changes), modified: next.modified, version: next.version },
        event,
      );
      if (updated) {
        await this.relay.flush(doc._id);
        return updated;
      }
    }
    throw conflict('The object is being changed by others; try again');
  }

  async remove(path: string, caller: Caller): Promise<void> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const doc = await this.find(path, caller.publicUrl);
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be deleted');
      authorize(caller.principal, 'Delete objects', doc);
      const removed = [doc._id, ...(await this.repo.descendantUids(doc._id))];
      const event = newEvent(
        'content.removed',
        { uid: doc._id, version: doc.version + 1, path, removed_uids: removed },
        caller.requestId,
      );
      if (await this.repo.tombstone(doc._id, doc.version, event)) {
        await this.repo.deleteDescendants(doc._id);
        await this.relay.flush(doc._id);
        return;
      }
    }
    throw conflict('The object is being changed by others; try again');
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What events and look-ups carry of an object. */
export function snapshot(doc: ContentDoc): ContentSnapshot {
  const type = contentType(doc.portal_type);
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
    searchable_text: [doc.id, doc.title, doc.description].join(' '),
    allowed_roles_and_users: doc.allowed ?? [],
  };
}
