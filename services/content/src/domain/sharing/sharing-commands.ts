import {
  AUTHENTICATED_GROUP,
  badRequest,
  DELEGABLE_ROLES,
  forbidden,
  hasPermission,
  principalIds,
  rolesHere,
  rolesOf,
  SITE_PERMISSIONS,
  type LocalRoles,
  type Permission,
  type Principal__Output,
} from '@cms/shared';
import { accessFields, accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import { modifiedEvent } from '../content/content-events';
import type { ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { SubtreeFollower } from '../tree/subtree';
import { SYSTEM_WRITE, type ContentWriter, type WriteAuthor } from '../content/write-path';

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

/** An object's own local roles and whether it inherits, as a change makes them from its current version. */
type OwnRoles = (
  current: ContentDoc,
  parent: ContentDoc | null,
) => Pick<ContentDoc, 'local_roles' | 'block_local_roles'>;

const DELEGABLE = new Set<string>(DELEGABLE_ROLES.map((r) => r.id));
const AUTHENTICATED_TITLE = 'Logged-in users';

/**
 * Who may delegate a role, besides holding the sharing permission (the reference platform's "Sharing page:
 * Delegate Reviewer role"); the other delegable roles go with the sharing permission alone.
 */
const DELEGATED_ONLY_BY: Partial<Record<string, readonly string[]>> = {
  Reviewer: ['Manager', 'Site Administrator', 'Reviewer'],
};
/** Who may grant roles to themselves and to their own groups. */
const SELF_GRANTING = ['Manager', 'Site Administrator'];
const PERMISSIONS = Object.keys(SITE_PERMISSIONS) as Permission[];

/** `@sharing`: who holds which local roles on an object, and granting them. */
export class SharingCommands {
  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
    private readonly directory: PrincipalDirectory,
    private readonly follower: SubtreeFollower,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The sharing form; `@sharing` declares "Change local roles", which the dispatcher checked. */
  async read(doc: ContentDoc, search: string | undefined, caller: Caller) {
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

    // Checked on the version written (the plan runs at every attempt), so a concurrent change cannot slip by.
    await this.regrant(
      doc,
      (current, parent) => {
        checkDelegation(current, input.entries, caller.principal);
        const own = {
          local_roles: applyEntries(current.local_roles ?? [], input.entries),
          block_local_roles: input.inherit === undefined ? (current.block_local_roles ?? false) : !input.inherit,
        };
        checkNoSelfGain(current, { ...current, ...accessFields({ ...current, ...own }, parent) }, caller.principal);
        return own;
      },
      caller,
      caller.requestId,
    );
  }

  /** A removed user or group keeps no local role anywhere (identity.user.removed / identity.group.removed). */
  async dropPrincipal(principal: string, requestId: string): Promise<void> {
    for (const held of await this.repo.grantedTo(principal)) {
      // Re-read: an earlier regrant in this loop may have rewritten it as a descendant.
      const doc = await this.repo.byUid(held._id);
      if (!doc) continue;
      const without = (current: ContentDoc) => ({
        local_roles: (current.local_roles ?? []).filter((g) => g.principal !== principal),
        block_local_roles: current.block_local_roles,
      });
      await this.regrant(doc, without, SYSTEM_WRITE, requestId);
    }
  }

  /**
   * Writes new own local roles on an object with its recomputed access fields, marking its subtree stale in
   * the same write; then everything below follows.
   */
  private async regrant(doc: ContentDoc, ownRoles: OwnRoles, author: WriteAuthor, requestId: string): Promise<void> {
    const parent = await this.parentOf(doc);
    const written = await this.writer.write(
      doc,
      {
        kind: 'sharing',
        permission: 'Change local roles',
        plan: (current) => {
          const own = ownRoles(current, parent);
          const access = accessFields({ ...current, ...own }, parent);
          const set: Partial<ContentDoc> = {
            local_roles: own.local_roles ?? [],
            block_local_roles: own.block_local_roles ?? false,
            ...access,
            subtree_stale: this.now().toISOString(),
          };
          return { set, events: (next) => [modifiedEvent(next, ['local_roles'], requestId)] };
        },
      },
      author,
    );
    if (written) await this.follower.follow(written.after, requestId);
  }

  private async parentOf(doc: ContentDoc): Promise<ContentDoc | null> {
    return doc.parent_uid ? this.repo.byUid(doc.parent_uid) : null;
  }
}

/**
 * Refuses (403) a change of a role the caller may not delegate here, and a role given to the caller or to a group
 * the caller is in (`AuthenticatedUsers` included): nobody raises their own rights through the sharing form, but
 * Managers and Site Administrators. Roles an entry leaves as they are (a whole form sent back) are no change.
 */
function checkDelegation(
  current: ContentDoc,
  entries: SharingUpdate['entries'],
  principal: Principal__Output | null,
): void {
  const roles = rolesHere(principal, current.effective_local_roles);
  const mayGrantSelf = SELF_GRANTING.some((role) => roles.has(role));
  const self = new Set(principalIds(principal));
  for (const entry of entries) {
    const held = rolesOf(current.local_roles ?? [], entry.id);
    for (const [role, granted] of Object.entries(entry.roles)) {
      if (granted === held.includes(role)) continue;
      const delegators = DELEGATED_ONLY_BY[role];
      if (delegators && !delegators.some((r) => roles.has(r)))
        throw forbidden(`You may not grant or revoke the role "${role}" here: only ${delegators.join(', ')} may`);
      if (granted && self.has(entry.id) && !mayGrantSelf)
        throw forbidden(
          entry.id === principal?.id
            ? `You may not grant roles to yourself ("${role}")`
            : `You may not grant roles to a group you are in ("${role}" to ${entry.id})`,
        );
    }
  }
}

/**
 * Refuses (403) a change that gives the caller a permission here they did not have: switching inheritance back on
 * must not hand the caller roles held above that this object kept from them (Managers and Site Administrators
 * excepted, who hold every permission anyway).
 */
function checkNoSelfGain(before: ContentDoc, after: ContentDoc, principal: Principal__Output | null): void {
  const gained = PERMISSIONS.filter(
    (permission) =>
      !hasPermission(principal, permission, accessOf(before)) && hasPermission(principal, permission, accessOf(after)),
  );
  if (gained.length)
    throw forbidden(`This change would give you permissions you do not have here: ${gained.join(', ')}`);
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
