import { randomUUID } from 'node:crypto';
import { badRequest, conflict, DuplicateKeyError, hasPermission, urlOf, type FieldError } from '@cms/shared';
import { accessFields, accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import { addedEvent, movedEvent } from '../content/content-events';
import type { FileStorage, FileValue } from '../files/files';
import { childPath, type ContentDoc } from '../content/model';
import { reservedId } from './naming';
import { withAlias } from './aliases';
import type { ContentRepository } from '../content/repository';
import type { SubtreeFollower } from './subtree';
import { INITIAL_STATE, SITE_ROOT_TYPE, type TypeRegistry } from '../types';
import { SYSTEM_WRITE, type ContentWriter, type DeferredFlushes, type WriteAuthor } from '../content/write-path';

/** What the objects of one copied tree share. */
interface CopyRun {
  at: string;
  caller: Caller;
  flushes: DeferredFlushes;
}

/** One line of a `@copy` / `@move` answer. */
export interface Relocation {
  source: string;
  target: string;
}

/** Operations on the shape of the tree: copy and move (a rename is an update: ContentCommands.update). */
export class TreeCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly follower: SubtreeFollower,
    private readonly files: Pick<FileStorage, 'duplicate' | 'release'>,
    private readonly types: TypeRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `@move`: moves each source into `target`, keeping its id unless that is taken there. */
  async move(target: ContentDoc, sources: string[], caller: Caller): Promise<Relocation[]> {
    const docs = await this.resolveSources(sources, caller);
    this.checkContainer(target, docs, caller);
    for (const [index, doc] of docs.entries()) {
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be moved', sourceError(index));
      if (doc._id === target._id || target.ancestors.includes(doc._id)) {
        throw badRequest(`Cannot move ${doc.path} into itself`, sourceError(index));
      }
      this.writer.checkPermission(doc, 'Delete objects', caller);
    }
    const result: Relocation[] = [];
    for (const doc of docs) {
      const source = urlOf(caller.publicUrl, doc.path ?? '/');
      if (doc.parent_uid === target._id) {
        result.push({ source, target: source });
        continue;
      }
      const moved = await this.relocate(doc, target, copyIds(doc.id, target.path ?? '/'), caller);
      result.push({ source, target: urlOf(caller.publicUrl, moved?.path ?? '/') });
    }
    return result;
  }

  /**
   * `@copy`: copies each source, with everything inside it that the caller may view, into `target`
   * (`copy_of_<id>` when the id is taken).
   */
  async copy(target: ContentDoc, sources: string[], caller: Caller): Promise<Relocation[]> {
    const docs = await this.resolveSources(sources, caller);
    this.checkContainer(target, docs, caller);
    for (const [index, doc] of docs.entries()) {
      if (doc.portal_type === SITE_ROOT_TYPE) throw badRequest('The site root cannot be copied', sourceError(index));
    }
    // As the reference: `[{source, target}]`; what the caller may not view was left out and is not mentioned.
    const result: Relocation[] = [];
    for (const doc of docs) {
      const root = await this.copyTree(doc, target, caller);
      result.push({
        source: urlOf(caller.publicUrl, doc.path ?? '/'),
        target: urlOf(caller.publicUrl, root.path ?? '/'),
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
      this.writer.checkPermission(doc, 'View', caller);
      docs.push(doc);
    }
    return docs;
  }

  private checkContainer(target: ContentDoc, docs: ContentDoc[], caller: Caller): void {
    const container = this.types.get(target.portal_type);
    if (!container.folderish) throw badRequest(`${target.portal_type} "${target.id}" is not a folder`);
    this.writer.checkPermission(target, 'Add portal content', caller);
    for (const [index, doc] of docs.entries()) {
      if (!this.types.get(doc.portal_type).addable) {
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
    doc: ContentDoc,
    parent: ContentDoc,
    ids: Iterable<string>,
    caller: Caller,
  ): Promise<ContentDoc | null> {
    const position = doc.parent_uid === parent._id ? doc.position : await this.repo.takeChildPosition(parent._id);
    for (const id of ids) {
      const moved = await this.relocateAs(doc, parent, id, position, caller);
      if (!moved) continue; // id taken there: next candidate
      await this.follower.follow(moved, caller.requestId);
      return moved;
    }
    return null;
  }

  /** The object's own write of a move to `id` under `parent`; null when that id is taken there. */
  private async relocateAs(
    doc: ContentDoc,
    parent: ContentDoc,
    id: string,
    position: number,
    caller: Caller,
  ): Promise<ContentDoc | null> {
    try {
      const written = await this.writer.write(
        doc,
        {
          kind: 'relocate',
          permission: 'Delete objects',
          plan: (current) => {
            const stamp = this.now().toISOString();
            const set: Partial<ContentDoc> = {
              id,
              path: childPath(parent.path ?? '/', id),
              parent_uid: parent._id,
              ancestors: [...parent.ancestors, parent._id],
              position,
              ...withAlias(current, current.path ?? '/', stamp, false),
              subtree_stale: stamp,
              modified: stamp,
              ...accessFields(current, parent),
            };
            return { set, events: (next) => [movedEvent(current, next, caller.requestId)] };
          },
        },
        caller,
      );
      return written.after;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  /**
   * Copies `source` and everything inside it that the caller may view under `target`. Copies are new
   * objects: new UIDs, the copier as owner, workflow back at its start, their
   * own file blobs. Parents are written before their children. An object the caller may not view is left
   * out with everything below it: owning the copy must not show what the original hid.
   */
  private async copyTree(source: ContentDoc, target: ContentDoc, caller: Caller): Promise<ContentDoc> {
    // Read the subtree first: a copy into the source's own subtree must not copy itself.
    const descendants = await this.repo.descendants(source._id);
    const run: CopyRun = { at: this.now().toISOString(), caller, flushes: this.writer.deferFlushes() };
    const copies = new Map<string, ContentDoc>();
    const rootPosition = await this.repo.takeChildPosition(target._id);
    let root: ContentDoc | null = null;
    for (const id of copyIds(source.id, target.path ?? '/')) {
      root = await this.insertCopy(source, target, id, rootPosition, run, caller);
      if (root) break;
    }
    if (!root) throw conflict('No free id for the copy');
    copies.set(source._id, root);
    for (const original of descendants) {
      const parent = copies.get(original.parent_uid ?? '');
      if (!parent || !hasPermission(caller.principal, 'View', accessOf(original))) continue;
      // Inside the copy just made (the caller owns it): adding the copy to the target was the write allowed.
      const copy = await this.insertCopy(original, parent, original.id, original.position, run, SYSTEM_WRITE);
      if (copy) copies.set(original._id, copy);
    }
    await run.flushes.flush();
    return root;
  }

  private async insertCopy(
    original: ContentDoc,
    parent: ContentDoc,
    id: string,
    position: number,
    { at, caller, flushes }: CopyRun,
    author: WriteAuthor,
  ): Promise<ContentDoc | null> {
    const type = this.types.get(original.portal_type);
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
    const added = await this.writer.insert(
      { kind: 'copy', doc, events: [addedEvent(doc, caller.requestId)], container: parent },
      author,
      flushes,
    );
    if (added) return doc;
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
}

/**
 * `doc`, `copy_of_doc`, `copy2_of_doc`, … (the names a paste gives when the id is taken), but for a name the folder
 * at `parentPath` keeps (naming.ts, reservedId).
 */
function* copyIds(id: string, parentPath: string): Generator<string> {
  if (!reservedId(parentPath, id)) yield id;
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
  // A copy is a new object: not locked, and with no history of its own yet.
  delete copy.lock;
  delete copy.last_version;
  delete copy.version_pending;
  // Nor is it checked out, or a working copy (working-copies.ts).
  delete copy.working_copy;
  delete copy.working_copy_of;
  delete copy.iteration_pending;
  // Nor a translation of what the original is linked to (a second object of its language in the group).
  delete copy.translation_group;
  return copy;
}
