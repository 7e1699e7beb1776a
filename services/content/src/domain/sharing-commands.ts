import {
  AUTHENTICATED_GROUP,
  badRequest,
  DELEGABLE_ROLES,
  newEvent,
  rolesOf,
  type LocalRoles,
  type Principal__Output,
} from '@cms/shared';
import { accessFields, authorize } from './access';
import { snapshot, type Caller } from './content-commands';
import { MAX_WRITE_ATTEMPTS, type ContentDoc } from './model';
import type { ContentRepository, EventRelay } from './repository';
import type { SubtreeFollower } from './subtree';

export interface PrincipalSummary {
  id: string;
  title: string;
  /** `user` or `group`. */
  type: string;
  roles: string[];
}

/** Users and groups, as the identity service knows them. */
export interface PrincipalDirectory {
  describe(ids: string[], requestId: string): Promise<PrincipalSummary[]>;
  search(text: string, requestId: string): Promise<PrincipalSummary[]>;
}

export interface SharingUpdate {
  entries: { id: string; type?: string; roles: Record<string, boolean> }[];
  inherit?: boolean;
}

const DELEGABLE = new Set<string>(DELEGABLE_ROLES.map((r) => r.id));
const AUTHENTICATED_TITLE = 'Logged-in users';

/** `@sharing`: who holds which local roles on an object, and granting them. */
export class SharingCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
    private readonly directory: PrincipalDirectory,
    private readonly follower: SubtreeFollower,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async read(doc: ContentDoc, search: string | undefined, caller: Caller) {
    authorize(caller.principal, 'Change local roles', doc);
    const own = doc.local_roles ?? [];
    const inherited = doc.block_local_roles ? [] : ((await this.parentOf(doc))?.effective_local_roles ?? []);
    const holders = [...new Set([...own, ...inherited].map((g) => g.principal))].filter((id) =>
      [...rolesOf(own, id), ...rolesOf(inherited, id)].some((role) => DELEGABLE.has(role)),
    );
    const found = search ? await this.directory.search(search, caller.requestId) : [];
    const described = await this.directory.describe(
      holders.filter((id) => id !== AUTHENTICATED_GROUP && !found.some((p) => p.id === id)),
      caller.requestId,
    );
    const principals = new Map<string, PrincipalSummary>();
    principals.set(AUTHENTICATED_GROUP, {
      id: AUTHENTICATED_GROUP,
      title: AUTHENTICATED_TITLE,
      type: 'group',
      roles: [],
    });
    for (const p of [...described, ...found]) principals.set(p.id, p);

    const entries = [...principals.values()]
      .sort((a, b) => (a.type === b.type ? a.title.localeCompare(b.title) : a.type === 'group' ? -1 : 1))
      .map((p) => sharingEntry(p, rolesOf(own, p.id), rolesOf(inherited, p.id), caller.principal));
    return { available_roles: DELEGABLE_ROLES, entries, inherit: !doc.block_local_roles };
  }

  /** Grants and revokes delegable local roles; everything below follows (inheritance), each with its event. */
  async update(doc: ContentDoc, input: SharingUpdate, caller: Caller): Promise<void> {
    authorize(caller.principal, 'Change local roles', doc);
    for (const [i, entry] of input.entries.entries()) {
      const unknown = Object.keys(entry.roles).filter((role) => !DELEGABLE.has(role));
      if (unknown.length) {
        throw badRequest(`Roles that cannot be shared: ${unknown.join(', ')}`, [
          { field: `entries.${i}.roles`, message: `only ${[...DELEGABLE].join(', ')}` },
        ]);
      }
    }
    const ids = input.entries.map((e) => e.id).filter((id) => id !== AUTHENTICATED_GROUP);
    const known = new Set((await this.directory.describe(ids, caller.requestId)).map((p) => p.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length)
      throw badRequest(`No such user or group: ${missing.join(', ')}`, [
        { field: 'entries', message: 'unknown principal' },
      ]);

    const ownRoles = applyEntries(doc.local_roles ?? [], input.entries);
    const blocked = input.inherit === undefined ? (doc.block_local_roles ?? false) : !input.inherit;
    await this.regrant(doc, { local_roles: ownRoles, block_local_roles: blocked }, caller);
  }

  /** A removed user or group keeps no local role anywhere (identity.user.removed / identity.group.removed). */
  async dropPrincipal(principal: string, requestId: string): Promise<void> {
    const caller: Caller = { principal: null, requestId, publicUrl: '' };
    for (const held of await this.repo.grantedTo(principal)) {
      // Re-read: an earlier regrant in this loop may have rewritten it as a descendant.
      const doc = await this.repo.byUid(held._id);
      if (!doc) continue;
      const own = (doc.local_roles ?? []).filter((g) => g.principal !== principal);
      await this.regrant(doc, { local_roles: own }, caller);
    }
  }

  /** Writes new own local roles on an object (marking its subtree stale in the same write); everything below follows. */
  private async regrant(
    doc: ContentDoc,
    change: Pick<ContentDoc, 'local_roles' | 'block_local_roles'>,
    caller: Caller,
  ) {
    const changed = await this.writeAccess(doc, change, await this.parentOf(doc), caller);
    await this.relay.flush(doc._id);
    await this.follower.follow(changed, caller.requestId);
  }

  private async parentOf(doc: ContentDoc): Promise<ContentDoc | null> {
    return doc.parent_uid ? this.repo.byUid(doc.parent_uid) : null;
  }

  /** Writes own-role changes and the recomputed access fields of one object, retrying on concurrent writes. */
  private async writeAccess(
    initial: ContentDoc,
    change: Pick<ContentDoc, 'local_roles' | 'block_local_roles'>,
    parent: ContentDoc | null,
    caller: Caller,
  ): Promise<ContentDoc> {
    let doc = initial;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const next: ContentDoc = { ...doc, ...change, version: doc.version + 1 };
      Object.assign(next, accessFields(next, parent));
      const fields: Partial<ContentDoc> = {
        local_roles: next.local_roles ?? [],
        block_local_roles: next.block_local_roles ?? false,
        effective_local_roles: next.effective_local_roles,
        acquired_state: next.acquired_state,
        allowed: next.allowed,
        version: next.version,
        subtree_stale: this.now().toISOString(),
      };
      const event = newEvent(
        'content.modified',
        { uid: doc._id, version: next.version, changed: ['local_roles'], snapshot: snapshot(next) },
        caller.requestId,
      );
      if (await this.repo.setFields(doc._id, doc.version, fields, event)) return next;
      const reread = await this.repo.byUid(doc._id);
      if (!reread) return next;
      doc = reread;
    }
    throw badRequest('The object is being changed by others; try again');
  }
}

function applyEntries(current: LocalRoles, entries: SharingUpdate['entries']): LocalRoles {
  const result = new Map(current.map((g) => [g.principal, new Set(g.roles)]));
  for (const entry of entries) {
    const roles = result.get(entry.id) ?? new Set<string>();
    for (const [role, granted] of Object.entries(entry.roles)) {
      if (granted) roles.add(role);
      else roles.delete(role);
    }
    if (roles.size) result.set(entry.id, roles);
    else result.delete(entry.id);
  }
  return [...result].map(([principal, roles]) => ({ principal, roles: [...roles] }));
}

/** One row of the sharing form: true (granted here), "acquired" (from above), "global", or false. */
function sharingEntry(p: PrincipalSummary, own: string[], inherited: string[], viewer: Principal__Output | null) {
  const roles = Object.fromEntries(
    DELEGABLE_ROLES.map(({ id }) => [
      id,
      own.includes(id) ? true : inherited.includes(id) ? 'acquired' : p.roles.includes(id) ? 'global' : false,
    ]),
  );
  if (p.type === 'group') {
    return {
      ...(p.id === AUTHENTICATED_GROUP ? { disabled: false } : {}),
      id: p.id,
      login: null,
      roles,
      title: p.title,
      type: 'group',
    };
  }
  // Nobody edits their own row.
  return { disabled: viewer?.id === p.id, id: p.id, roles, title: p.title, type: 'user' };
}
