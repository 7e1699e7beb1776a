import { randomUUID } from 'node:crypto';
import { badRequest, conflict, DuplicateKeyError, newEvent, urlOf, type FieldError } from '@cms/shared';
import { z } from 'zod';
import { accessFields, authorize } from './access';
import { snapshot, type Caller } from './content-commands';
import type { FileStorage, FileValue } from './files';
import { childPath, MAX_WRITE_ATTEMPTS, type ContentDoc } from './model';
import { checkId } from './naming';
import type { ContentRepository, EventRelay } from './repository';
import type { SubtreeFollower } from './subtree';
import { contentType, INITIAL_STATE, SITE_ROOT_TYPE } from './types';

/** `ordering` of a folder PATCH: move one child by `delta` places (or to the top/bottom) among `subset_ids`. */
export const orderingSchema = z
  .object({
    obj_id: z.string().min(1),
    delta: z.union([z.literal('top'), z.literal('bottom'), z.number().int()]),
    subset_ids: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** `sort` of a folder PATCH: re-sort every child by one field. */
export const sortSchema = z
  .object({
    on: z.string().min(1),
    order: z.enum(['ascending', 'descending', 'reverse']).default('ascending'),
  })
  .strict();

export type OrderingInput = z.infer<typeof orderingSchema>;
export type SortInput = z.infer<typeof sortSchema>;

/** One line of a `@copy` / `@move` answer. */
export interface Relocation {
  source: string;
  target: string;
}

/** Fields a folder can be re-sorted on; anything else is 400. */
const SORTABLE: Record<string, (doc: ContentDoc) => string | number> = {
  id: (d) => d.id,
  title: (d) => d.title.toLowerCase(),
  sortable_title: (d) => d.title.toLowerCase(),
  description: (d) => d.description,
  created: (d) => d.created,
  modified: (d) => d.modified,
  effective: (d) => d.effective ?? '',
  expires: (d) => d.expires ?? '',
  portal_type: (d) => d.portal_type,
  review_state: (d) => d.review_state ?? '',
  getObjPositionInParent: (d) => d.position,
};

/** Operations on the shape of the tree: order within a folder, rename, copy, move. */
export class TreeCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
    private readonly follower: SubtreeFollower,
    private readonly files: Pick<FileStorage, 'duplicate' | 'release'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Applies a folder PATCH's `ordering` and/or `sort` to the children of `folder`. */
  async order(folder: ContentDoc, input: { ordering?: OrderingInput; sort?: SortInput }, caller: Caller) {
    authorize(caller.principal, 'Modify portal content', folder);
    if (!contentType(folder.portal_type).folderish) {
      throw badRequest(`${folder.portal_type} "${folder.id}" is not a folder: it has no items to order`, [
        { field: input.ordering ? 'ordering' : 'sort', message: 'not a folder' },
      ]);
    }
    let children = await this.repo.allChildren(folder._id);
    if (input.sort) children = sorted(children, input.sort);
    if (input.ordering) children = reordered(children, input.ordering);
    if (children.length === 0) return; // nothing to order (and an empty pending order could not be found again)
    await this.repo.setOrderPending(
      folder._id,
      children.map((c) => c._id),
    );
    await this.applyOrder(folder._id, caller.requestId);
  }

  /** Finishes re-orderings a crash left half written. */
  async sweepOrders(requestId: string): Promise<number> {
    const pending = await this.repo.pendingOrders();
    for (const folder of pending) await this.applyOrder(folder._id, requestId);
    return pending.length;
  }

  /**
   * Gives the children the order recorded in the folder's `order_pending`,
   * re-using the positions they hold now (so the folder's next free position
   * stays free) and writing only the children whose position changes.
   */
  private async applyOrder(folderUid: string, requestId: string): Promise<void> {
    const folder = await this.repo.byUid(folderUid);
    if (!folder?.order_pending) return;
    const children = await this.repo.allChildren(folderUid);
    const byUid = new Map(children.map((c) => [c._id, c]));
    // Children added or removed since the order was recorded keep their place after the ordered ones.
    const ordered = [
      ...folder.order_pending.flatMap((uid) => byUid.get(uid) ?? []),
      ...children.filter((c) => !folder.order_pending?.includes(c._id)),
    ];
    const positions = children.map((c) => c.position).sort((a, b) => a - b);
    const written: string[] = [];
    for (const [index, child] of ordered.entries()) {
      if (child.position === positions[index]) continue;
      await this.writePosition(child, positions[index], requestId);
      written.push(child._id);
    }
    await this.repo.setOrderPending(folderUid, null);
    await Promise.all(written.map((uid) => this.relay.flush(uid)));
  }

  private async writePosition(initial: ContentDoc, position: number, requestId: string): Promise<void> {
    let doc = initial;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const next: ContentDoc = { ...doc, position, version: doc.version + 1 };
      const event = newEvent(
        'content.ordered',
        { uid: doc._id, version: next.version, parent_uid: doc.parent_uid ?? '', position, snapshot: snapshot(next) },
        requestId,
      );
      if (await this.repo.setFields(doc._id, doc.version, { position, version: next.version }, event)) return;
      const reread = await this.repo.byUid(doc._id);
      if (!reread) return;
      doc = reread;
    }
    throw conflict('The folder is being changed by others; try again');
  }

  /** Changes an object's id (PATCH with `id`); its subtree moves with it. */
  async rename(doc: ContentDoc, newId: string, caller: Caller): Promise<ContentDoc> {
    if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be renamed');
    authorize(caller.principal, 'Modify portal content', doc);
    checkId(newId);
    if (newId === doc.id) return doc;
    const parent = await this.parentOf(doc);
    const moved = await this.relocate(doc, parent, [newId], caller);
    if (!moved)
      throw conflict(`An object with id "${newId}" already exists in ${urlOf(caller.publicUrl, parent.path ?? '/')}`);
    return moved;
  }

  /** `@move`: moves each source into `target`, keeping its id unless that is taken there. */
  async move(target: ContentDoc, sources: string[], caller: Caller): Promise<Relocation[]> {
    const docs = await this.resolveSources(sources, caller);
    this.checkContainer(target, docs, caller);
    for (const [index, doc] of docs.entries()) {
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be moved', sourceError(index));
      if (doc._id === target._id || target.ancestors.includes(doc._id)) {
        throw badRequest(`Cannot move ${doc.path} into itself`, sourceError(index));
      }
      authorize(caller.principal, 'Delete objects', doc);
    }
    const result: Relocation[] = [];
    for (const doc of docs) {
      const source = urlOf(caller.publicUrl, doc.path ?? '/');
      if (doc.parent_uid === target._id) {
        result.push({ source, target: source });
        continue;
      }
      const moved = await this.relocate(doc, target, copyIds(doc.id), caller);
      result.push({ source, target: urlOf(caller.publicUrl, moved?.path ?? '/') });
    }
    return result;
  }

  /** `@copy`: copies each source, with everything inside it, into `target` (`copy_of_<id>` when the id is taken). */
  async copy(target: ContentDoc, sources: string[], caller: Caller): Promise<Relocation[]> {
    const docs = await this.resolveSources(sources, caller);
    this.checkContainer(target, docs, caller);
    for (const [index, doc] of docs.entries()) {
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be copied', sourceError(index));
    }
    const result: Relocation[] = [];
    for (const doc of docs) {
      const copy = await this.copyTree(doc, target, caller);
      result.push({
        source: urlOf(caller.publicUrl, doc.path ?? '/'),
        target: urlOf(caller.publicUrl, copy.path ?? '/'),
      });
    }
    return result;
  }

  /** Sources as URLs under the public URL, site paths, or UIDs; all must exist and be visible before anything is written. */
  private async resolveSources(sources: string[], caller: Caller): Promise<ContentDoc[]> {
    if (sources.length === 0) throw badRequest('Name at least one source', [{ field: 'source', message: 'empty' }]);
    const docs: ContentDoc[] = [];
    for (const [index, source] of sources.entries()) {
      const path = sitePath(source, caller.publicUrl);
      const doc = path ? await this.repo.byPath(path) : await this.repo.byUid(source);
      if (!doc) throw badRequest(`Source does not exist: ${source}`, sourceError(index));
      authorize(caller.principal, 'View', doc);
      docs.push(doc);
    }
    return docs;
  }

  private checkContainer(target: ContentDoc, docs: ContentDoc[], caller: Caller): void {
    const container = contentType(target.portal_type);
    if (!container.folderish) throw badRequest(`${target.portal_type} "${target.id}" is not a folder`);
    authorize(caller.principal, 'Add portal content', target);
    for (const [index, doc] of docs.entries()) {
      if (!contentType(doc.portal_type).addable) {
        throw badRequest(`A ${doc.portal_type} cannot be added to ${target.path}`, sourceError(index));
      }
    }
  }

  /**
   * Moves `doc` under `parent` with the first free id of `ids`: one atomic
   * write of the object itself (path, parent, position, inherited roles, old
   * path kept as an alias, subtree marked stale), then its subtree follows.
   * Null when every id was taken.
   */
  private async relocate(
    initial: ContentDoc,
    parent: ContentDoc,
    ids: Iterable<string>,
    caller: Caller,
  ): Promise<ContentDoc | null> {
    let doc = initial;
    const sameParent = doc.parent_uid === parent._id;
    const position = sameParent ? doc.position : await this.repo.takeChildPosition(parent._id);
    for (const id of ids) {
      for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
        const stamp = this.now().toISOString();
        const oldPath = doc.path ?? '/';
        const changes: Partial<ContentDoc> = {
          id,
          path: childPath(parent.path ?? '/', id),
          parent_uid: parent._id,
          ancestors: [...parent.ancestors, parent._id],
          position,
          aliases: [...new Set([...(doc.aliases ?? []), oldPath])],
          subtree_stale: stamp,
          modified: stamp,
          version: doc.version + 1,
          ...accessFields(doc, parent),
        };
        const next: ContentDoc = { ...doc, ...changes };
        const event = newEvent(
          'content.moved',
          {
            uid: doc._id,
            version: next.version,
            old_path: oldPath,
            new_path: next.path ?? '',
            old_parent_uid: doc.parent_uid ?? '',
            new_parent_uid: parent._id,
            snapshot: snapshot(next),
          },
          caller.requestId,
        );
        let updated: ContentDoc | null;
        try {
          updated = await this.repo.updateFields(doc._id, doc.version, changes, event);
        } catch (error) {
          if (error instanceof DuplicateKeyError) break; // id taken there: next candidate
          throw error;
        }
        if (updated) {
          await this.relay.flush(doc._id);
          await this.follower.follow(updated, caller.requestId);
          return updated;
        }
        const reread = await this.repo.byUid(doc._id);
        if (!reread) throw badRequest(`${oldPath} was removed meanwhile`);
        doc = reread;
      }
    }
    return null;
  }

  /**
   * Copies `source` and everything inside it under `target`. Copies are new
   * objects: new UIDs, the copier as owner, workflow back at its start, their
   * own file blobs. Parents are written before their children.
   */
  private async copyTree(source: ContentDoc, target: ContentDoc, caller: Caller): Promise<ContentDoc> {
    // Read the subtree first: a copy into the source's own subtree must not copy itself.
    const descendants = await this.repo.descendants(source._id);
    const at = this.now().toISOString();
    const copies = new Map<string, ContentDoc>();
    const rootPosition = await this.repo.takeChildPosition(target._id);
    let root: ContentDoc | null = null;
    for (const id of copyIds(source.id)) {
      root = await this.insertCopy(source, target, id, rootPosition, at, caller);
      if (root) break;
    }
    if (!root) throw conflict('No free id for the copy');
    copies.set(source._id, root);
    for (const original of descendants) {
      const parent = copies.get(original.parent_uid ?? '');
      if (!parent) continue;
      const copy = await this.insertCopy(original, parent, original.id, original.position, at, caller);
      if (copy) copies.set(original._id, copy);
    }
    await Promise.all([...copies.values()].map((c) => this.relay.flush(c._id)));
    return root;
  }

  private async insertCopy(
    original: ContentDoc,
    parent: ContentDoc,
    id: string,
    position: number,
    at: string,
    caller: Caller,
  ): Promise<ContentDoc | null> {
    const type = contentType(original.portal_type);
    const owner = caller.principal?.id;
    const doc: ContentDoc = {
      ...withoutInternals(original),
      _id: randomUUID().replace(/-/g, ''),
      id,
      path: childPath(parent.path ?? '/', id),
      parent_uid: parent._id,
      ancestors: [...parent.ancestors, parent._id],
      position,
      created: at,
      modified: at,
      version: 1,
      review_state: type.workflow ? INITIAL_STATE : null,
      workflow_history: type.workflow
        ? [{ action: null, actor: owner ?? '', comments: '', review_state: INITIAL_STATE, time: at }]
        : [],
      local_roles: [
        ...(original.local_roles ?? []).filter((g) => !g.roles.includes('Owner')),
        ...(owner ? [{ principal: owner, roles: ['Owner'] }] : []),
      ],
      aliases: [],
      fields: await this.duplicateFiles(original.fields),
    };
    Object.assign(doc, accessFields(doc, parent));
    const event = newEvent('content.added', { uid: doc._id, version: 1, snapshot: snapshot(doc) }, caller.requestId);
    if (await this.repo.insertNew(doc, event)) return doc;
    // The id was taken: nothing refers to the duplicated blobs.
    await this.files.release(Object.values(doc.fields ?? {}).filter(isFileValue));
    return null;
  }

  private async duplicateFiles(fields: ContentDoc['fields']): Promise<ContentDoc['fields']> {
    if (!fields) return fields;
    const copied: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      copied[name] = isFileValue(value) ? await this.files.duplicate(value) : value;
    }
    return copied;
  }

  private async parentOf(doc: ContentDoc): Promise<ContentDoc> {
    const parent = doc.parent_uid ? await this.repo.byUid(doc.parent_uid) : null;
    if (!parent) throw badRequest(`The parent of ${doc.path} is gone`);
    return parent;
  }
}

/** `doc`, `copy_of_doc`, `copy2_of_doc`, … (the names a paste gives when the id is taken). */
function* copyIds(id: string): Generator<string> {
  yield id;
  yield `copy_of_${id}`;
  for (let n = 2; ; n++) yield `copy${n}_of_${id}`;
}

/** The site path a source names, or null when it is not a URL or path (then it may be a UID). */
function sitePath(source: string, publicUrl: string): string | null {
  if (source.startsWith('/')) return normalizePath(source);
  if (!/^https?:\/\//.test(source)) return null;
  const base = publicUrl.replace(/\/+$/, '');
  if (source !== base && !source.startsWith(base + '/')) return null;
  return normalizePath(decodeURIComponent(source.slice(base.length)));
}

function normalizePath(path: string): string {
  const segments = path.split('/').filter((s) => s && s !== '++api++');
  return '/' + segments.join('/');
}

function sourceError(index: number): FieldError[] {
  return [{ field: `source.${index}`, message: 'cannot be used' }];
}

function isFileValue(value: unknown): value is FileValue {
  return typeof value === 'object' && value !== null && typeof (value as FileValue).blob_id === 'string';
}

function withoutInternals(doc: ContentDoc): ContentDoc {
  const copy = { ...doc };
  delete copy._outbox;
  delete copy._pending;
  delete copy.subtree_stale;
  delete copy.order_pending;
  return copy;
}

function sorted(children: ContentDoc[], sort: SortInput): ContentDoc[] {
  const key = SORTABLE[sort.on];
  if (!key) {
    throw badRequest(`Cannot sort on "${sort.on}"; use one of ${Object.keys(SORTABLE).join(', ')}`, [
      { field: 'sort.on', message: 'unknown sort field' },
    ]);
  }
  const direction = sort.order === 'ascending' ? 1 : -1;
  return [...children].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -1 : x > y ? 1 : 0) * direction;
  });
}

/**
 * Moves `obj_id` by `delta` places: `top`/`bottom` among all children, a
 * number among `subset_ids` (the ids the client saw, in the order it saw
 * them), or among all children when there is no subset.
 */
function reordered(children: ContentDoc[], ordering: OrderingInput): ContentDoc[] {
  const ids = children.map((c) => c.id);
  if (!ids.includes(ordering.obj_id)) {
    throw badRequest(`No item "${ordering.obj_id}" in this folder`, [
      { field: 'ordering.obj_id', message: 'not in this folder' },
    ]);
  }
  const subset = ordering.subset_ids ?? ids;
  const missing = subset.filter((id) => !ids.includes(id));
  if (missing.length) {
    throw badRequest(`Not in this folder: ${missing.join(', ')}`, [
      { field: 'ordering.subset_ids', message: 'unknown ids' },
    ]);
  }
  if (!subset.includes(ordering.obj_id)) {
    throw badRequest(`"${ordering.obj_id}" is not in subset_ids`, [
      { field: 'ordering.subset_ids', message: 'must contain obj_id' },
    ]);
  }
  const current = ids.filter((id) => subset.includes(id));
  if (current.join('/') !== subset.join('/')) {
    throw badRequest('Client/server ordering mismatch: the folder changed since it was read', [
      { field: 'ordering.subset_ids', message: 'not the current order' },
    ]);
  }
  let order: string[];
  if (ordering.delta === 'top' || ordering.delta === 'bottom') {
    order = ids.filter((id) => id !== ordering.obj_id);
    if (ordering.delta === 'top') order.unshift(ordering.obj_id);
    else order.push(ordering.obj_id);
  } else {
    const within = current.filter((id) => id !== ordering.obj_id);
    const from = current.indexOf(ordering.obj_id);
    const to = Math.max(0, Math.min(within.length, from + ordering.delta));
    within.splice(to, 0, ordering.obj_id);
    // The subset's slots in the whole list take the subset's new order.
    let next = 0;
    order = ids.map((id) => (subset.includes(id) ? within[next++] : id));
  }
  const byId = new Map(children.map((c) => [c.id, c]));
  return order.map((id) => byId.get(id) as ContentDoc);
}
