import {
  badRequest,
  conflict,
  rolesHere,
  forbidden,
  newEvent,
  notFound,
  type FieldError,
  type Granted,
  type IdentityGroupRemoved,
  type Principal__Output,
} from '@cms/shared';
import { AUTHENTICATED_USERS, type GroupDoc } from './group';
import type { GroupStore } from './groups-repository';
import { Memberships, compareIds } from './groups-membership';
import { checkAssignable } from './roles';
import type { UserStore } from './users-repository';
import type { WriteRetry } from '@cms/shared';
import { WritePath, type EventFlusher, type PrincipalChanges } from './write-path';

/** The group record is defined in ./group (which membership resolution imports); its users find it here too. */
export type { GroupDoc } from './group';

/** Addendum §2: the groups of a new site. They cannot be deleted. */
export const BUILTIN_GROUPS: readonly GroupDoc[] = [
  { _id: 'Administrators', title: 'Administrators', roles: ['Manager'] },
  { _id: 'Site Administrators', title: 'Site Administrators', roles: ['Site Administrator'] },
  { _id: 'Reviewers', title: 'Reviewers', roles: ['Reviewer'] },
].map((g) => ({ ...g, description: '', email: '', members: [], version: 1 }));

export function isBuiltinGroup(id: string): boolean {
  return id === AUTHENTICATED_USERS || BUILTIN_GROUPS.some((g) => g._id === id);
}

/** How the virtual group is shown in group listings. */
const AUTHENTICATED_USERS_VIEW = {
  title: 'Authenticated Users (Virtual Group)',
  description: 'Automatic Group Provider',
};

/** Letters, digits, space and `._@+-`, starting with a letter or digit. */
export const GROUP_ID = /^[A-Za-z0-9](?:[A-Za-z0-9 ._@+-]{0,98}[A-Za-z0-9._@+-])?$/;

export interface NewGroup {
  groupname: string;
  title?: string | null;
  description?: string | null;
  email?: string | null;
  roles?: string[];
  users?: string[];
  /** Groups added as members of the new group. */
  groups?: string[];
}

export interface GroupChanges {
  title?: string | null;
  description?: string | null;
  email?: string | null;
  /** Replaces the group's own roles; `Authenticated` is implicit and ignored. */
  roles?: string[];
  /** Member id to true (add) or false (remove); members may be users or groups. */
  users?: Record<string, boolean>;
  /** Groups added as members. */
  groups?: string[];
}

export interface GroupCaller {
  principal: Principal__Output | null;
  requestId: string;
  /**
   * The dispatcher's proof that the caller may manage users (`@groups` declares "Manage users"): what these
   * commands need, so they do not check the permission again.
   */
  proof: Granted<'Manage users'>;
}

/** A group with what its JSON shows; `members` only in full views. */
export interface GroupView {
  id: string;
  title: string;
  description: string;
  email: string;
  roles: string[];
  members: string[];
}

/** The `@groups` rules: listing, creation, changes of members and roles, removal. */
export class GroupCommands {
  private readonly writes: WritePath<GroupDoc>;

  constructor(
    private readonly groups: GroupStore,
    private readonly users: UserStore,
    private readonly memberships: Memberships,
    relay: Pick<EventFlusher, 'flushGroup'>,
    changes: PrincipalChanges,
    /** How conflicting writes are retried (tests give their own sleep). */
    retry?: Partial<WriteRetry>,
  ) {
    this.writes = new WritePath(groups, { kind: 'group', flush: (id) => relay.flushGroup(id), changes, retry });
  }

  /** Writes the built-in groups that are missing (a new site, or an older one). */
  async ensureBuiltins(): Promise<void> {
    for (const group of BUILTIN_GROUPS) {
      if (!(await this.groups.byId(group._id))) await this.writes.insert({ ...group, members: [] });
    }
  }

  /** Groups sorted by id, the virtual group last; with `text`, those whose id or title contains it. */
  async list(caller: GroupCaller, text: string | undefined, limit: number): Promise<GroupView[]> {
    return (await this.search(text)).slice(0, limit);
  }

  /** Every group matching `text` (all without it), the virtual group included; no permission check. */
  async search(text: string | undefined): Promise<GroupView[]> {
    const stored = (await this.groups.list(text || undefined)).map(viewOf);
    const virtual = authenticatedUsersView();
    const needle = text?.toLowerCase();
    const virtualMatches =
      !needle || virtual.id.toLowerCase().includes(needle) || virtual.title.toLowerCase().includes(needle);
    return virtualMatches ? [...stored, virtual] : stored;
  }

  async get(caller: GroupCaller, id: string): Promise<GroupView> {
    if (id === AUTHENTICATED_USERS) return authenticatedUsersView();
    const group = await this.groups.byId(id);
    if (!group) throw notFound(`No group ${id}`);
    return viewOf(group);
  }

  /** `read` gives the validated body, read after the caller's own checks (only a Manager gives Manager). */
  async create(caller: GroupCaller, read: () => NewGroup): Promise<GroupView> {
    const input = read();
    const roles = ownRoles(input.roles ?? [], 'roles');
    if (roles.includes('Manager') && !isManager(caller)) {
      throw forbidden('Only a Manager may create a group with the role Manager');
    }
    const id = input.groupname;
    if (id === AUTHENTICATED_USERS || (await this.users.byId(id))) {
      throw conflict(`The id "${id}" is taken by another user or group`);
    }
    const users = unique(input.users ?? []);
    const memberGroups = unique(input.groups ?? []);
    const errors = [
      ...(await this.unknownUsers(users, 'users')),
      ...(await this.unusableGroups(memberGroups, 'groups', id)),
    ];
    if (errors.length) throw badRequest(`Unknown members: ${errors.map((e) => e.field).join(', ')}`, errors);

    const group: GroupDoc = {
      _id: id,
      title: input.title ?? '',
      description: input.description ?? '',
      email: input.email ?? '',
      roles,
      members: [...memberGroups, ...users],
      version: 1,
    };
    if (!(await this.writes.insert(group, group.members.length > 0 ? 'all' : undefined))) {
      throw conflict(`A group "${id}" already exists`);
    }
    return viewOf(group);
  }

  async update(caller: GroupCaller, id: string, read: () => GroupChanges): Promise<void> {
    const input = read();
    if (id === AUTHENTICATED_USERS) throw badRequest(`The virtual group ${id} cannot be changed`);
    const roles = input.roles === undefined ? undefined : ownRoles(input.roles, 'roles');
    const toggles = Object.entries(input.users ?? {});
    const added = unique([...(input.groups ?? []), ...toggles.filter(([, on]) => on).map(([member]) => member)]);
    const removed = toggles.filter(([, on]) => !on).map(([member]) => member);

    await this.writes.change(id, async (group) => {
      await this.checkManagerGuard(caller, group, roles, added.length + removed.length > 0);
      const newMembers = added.filter((m) => !group.members.includes(m));
      const errors = await this.unknownMembers(newMembers, id);
      if (errors.length) throw badRequest(`Unknown members: ${errors.map((e) => e.field).join(', ')}`, errors);

      const members = [...group.members.filter((m) => !removed.includes(m)), ...newMembers];
      const membersChanged = members.length !== group.members.length || newMembers.length > 0;
      const rolesChanged = roles !== undefined && !sameSet(roles, group.roles);
      return {
        set: {
          ...definedText({ title: input.title, description: input.description, email: input.email }),
          ...(roles ? { roles } : {}),
          members,
        },
        announce: membersChanged || rolesChanged ? 'all' : undefined,
      };
    });
  }

  async remove(caller: GroupCaller, id: string): Promise<void> {
    if (isBuiltinGroup(id)) throw badRequest(`The built-in group ${id} cannot be deleted`);
    const payload: IdentityGroupRemoved = { group_id: id };
    await this.writes.change(id, async (group) => {
      if (!isManager(caller) && (await this.memberships.rolesOfGroup(group)).includes('Manager')) {
        throw forbidden('Only a Manager may delete a group with the role Manager');
      }
      return {
        remove: true,
        events: [newEvent('identity.group.removed', payload, caller.requestId)],
        followUp: () => this.groups.removeMemberEverywhere(id),
        announce: 'all',
      };
    });
  }

  /** As the reference platform: only a Manager may give or take the role Manager, or change who has it. */
  private async checkManagerGuard(
    caller: GroupCaller,
    group: GroupDoc,
    roles: string[] | undefined,
    membersChange: boolean,
  ): Promise<void> {
    if (isManager(caller)) return;
    if (roles && roles.includes('Manager') !== group.roles.includes('Manager')) {
      throw forbidden('Only a Manager may give or take the role Manager');
    }
    if (membersChange && (await this.memberships.rolesOfGroup(group)).includes('Manager')) {
      throw forbidden('Only a Manager may change the members of a group with the role Manager');
    }
  }

  private async unknownUsers(ids: string[], field: string): Promise<FieldError[]> {
    const found = new Set((await this.users.byIds(ids)).map((u) => u._id));
    return ids.filter((id) => !found.has(id)).map((id) => ({ field: `${field}.${id}`, message: 'no such user' }));
  }

  /** Groups that cannot become members of `target`: unknown, virtual, itself, or containing it (a cycle). */
  private async unusableGroups(ids: string[], field: string, target: string): Promise<FieldError[]> {
    const found = new Set((await this.groups.byIds(ids)).map((g) => g._id));
    const containing = new Set((await this.memberships.groupsOf(target)).map((g) => g._id));
    const errors: FieldError[] = [];
    for (const id of ids) {
      if (id === AUTHENTICATED_USERS)
        errors.push({ field: `${field}.${id}`, message: 'the virtual group has no members' });
      else if (!found.has(id)) errors.push({ field: `${field}.${id}`, message: 'no such group' });
      else if (id === target || containing.has(id))
        errors.push({ field: `${field}.${id}`, message: 'would make the group a member of itself' });
    }
    return errors;
  }

  /** New members that are neither users nor usable groups. */
  private async unknownMembers(ids: string[], target: string): Promise<FieldError[]> {
    if (ids.length === 0) return [];
    const users = new Set((await this.users.byIds(ids)).map((u) => u._id));
    const groupIds = ids.filter((id) => !users.has(id));
    const groupErrors = await this.unusableGroups(groupIds, 'users', target);
    return groupErrors.map((e) => (e.message === 'no such group' ? { ...e, message: 'no such user or group' } : e));
  }
}

function viewOf(group: GroupDoc): GroupView {
  return {
    id: group._id,
    title: group.title,
    description: group.description,
    email: group.email,
    roles: [...[...group.roles].sort(), 'Authenticated'],
    members: [...group.members].sort(compareIds),
  };
}

function authenticatedUsersView(): GroupView {
  return { id: AUTHENTICATED_USERS, ...AUTHENTICATED_USERS_VIEW, email: '', roles: [], members: [] };
}

/** The roles a group is given: assignable ones; `Authenticated` is implicit and dropped. */
function ownRoles(roles: string[], field: string): string[] {
  checkAssignable(roles, field, ['Authenticated']);
  return unique(roles.filter((r) => r !== 'Authenticated'));
}

function isManager(caller: GroupCaller): boolean {
  return rolesHere(caller.principal).has('Manager');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function definedText(values: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value ?? '';
  return out;
}
