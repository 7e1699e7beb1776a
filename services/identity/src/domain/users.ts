import {
  badRequest,
  conflict,
  effectiveRoles,
  newEvent,
  notFound,
  type FieldError,
  type IdentityUserRemoved,
  type Principal__Output,
} from '@cms/shared';
import { AUTHENTICATED_USERS, type GroupDoc } from './groups';
import type { GroupStore } from './groups-repository';
import { InMemoryGroups, Memberships, compareIds } from './groups-membership';
import { hashPassword, verifyPassword } from './passwords';
import { parsePortrait, type Portrait, type PortraitUpload } from './portrait';
import { checkAssignable, displayRoles } from './roles';
import type { UserDoc } from './user';
import type { EventFlusher, LoginSettings, PrincipalChanges, UserStore } from './users-repository';

/**
 * Spec, authentication rule 4: on the user endpoints a refusal is 401 with the
 * body `null`, for anonymous and insufficiently privileged callers alike. Not
 * an AppError: the HTTP layer answers it, and nowhere else should.
 */
export class NullDenial extends Error {
  constructor() {
    super('Not allowed on this user');
    this.name = 'NullDenial';
  }
}

/** Letters, digits and `._@+-`, starting with a letter or digit (ids appear in URLs). */
export const USER_ID = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$/;

export interface NewUser {
  username?: string;
  password?: string;
  email?: string | null;
  fullname?: string | null;
  description?: string | null;
  home_page?: string | null;
  location?: string | null;
  roles?: string[];
  /** Groups the new user joins. */
  groups?: string[];
  sendPasswordReset?: boolean;
}

export interface UserChanges {
  email?: string | null;
  fullname?: string | null;
  description?: string | null;
  home_page?: string | null;
  location?: string | null;
  password?: string;
  /** Required with `password` when users change their own password (Managers excepted). */
  old_password?: string;
  /** Role to true (give) or false (take); Managers only. */
  roles?: Record<string, boolean>;
  /** A new portrait, or null to remove it. */
  portrait?: PortraitUpload | null;
}

export interface UserCaller {
  principal: Principal__Output | null;
  requestId: string;
}

/** A user with what its JSON shows. */
export interface UserView {
  user: UserDoc;
  /** Its groups, `AuthenticatedUsers` included, sorted by id. */
  groups: { id: string; title: string }[];
  /** Own roles plus those of its groups, as displayed. */
  roles: string[];
  hasPortrait: boolean;
}

export interface UserListQuery {
  /** Login name contains. */
  query?: string;
  /** Id, full name or e-mail contains. */
  search?: string;
  /** In any of these groups. */
  groups?: string[];
  limit: number;
}

const PROFILE_FIELDS = ['email', 'fullname', 'description', 'home_page', 'location'] as const;
const MAX_WRITE_ATTEMPTS = 5;

/** The `@users` and `@portrait` rules. */
export class UserCommands {
  constructor(
    private readonly users: UserStore,
    private readonly groups: GroupStore,
    private readonly memberships: Memberships,
    private readonly relay: EventFlusher,
    private readonly settings: LoginSettings,
    private readonly changes: PrincipalChanges,
    private readonly portraitMaxBytes: number,
  ) {}

  async list(caller: UserCaller, query: UserListQuery): Promise<{ items: UserView[]; total: number }> {
    requireManager(caller);
    let ids: string[] | undefined;
    if (query.groups?.length) ids = (await this.memberships.usersIn(query.groups)) ?? undefined;
    const { items, total } = await this.users.list(
      { login: query.query || undefined, text: query.search || undefined, ids },
      query.limit,
    );
    return { items: await this.views(items), total };
  }

  /** Users whose id, full name or e-mail contains the text; the caller's permission is checked by the caller. */
  async find(text: string, limit: number): Promise<UserView[]> {
    const { items } = await this.users.list({ text }, limit);
    return this.views(items);
  }

  async get(caller: UserCaller, id: string): Promise<UserView> {
    requireSelfOrManager(caller, id);
    const user = await this.users.byId(id);
    if (!user) throw notFound(`No user ${id}`);
    return (await this.views([user]))[0];
  }

  async create(caller: UserCaller, input: () => NewUser): Promise<UserView> {
    requireManager(caller);
    const data = input();
    const emailLogin = await this.settings.useEmailAsLogin(caller.requestId);
    const errors: FieldError[] = [];
    let id = data.username ?? '';
    if (emailLogin) {
      if (data.username !== undefined)
        errors.push({ field: 'username', message: 'not allowed: the e-mail address is the login name' });
      if (!data.email) errors.push({ field: 'email', message: 'required: the e-mail address is the login name' });
      id = (data.email ?? '').toLowerCase();
      if (data.email && !USER_ID.test(id))
        errors.push({ field: 'email', message: 'cannot be used as a user id (letters, digits and ._@+- only)' });
    } else if (!data.username) {
      errors.push({ field: 'username', message: 'required' });
    }
    if (!data.password) errors.push({ field: 'password', message: 'required' });
    if (data.sendPasswordReset)
      errors.push({ field: 'sendPasswordReset', message: 'not supported: this site sends no mail; give a password' });
    if (errors.length)
      throw badRequest(`Invalid user: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, errors);

    const roles = [...new Set(data.roles ?? ['Member'])];
    checkAssignable(roles, 'roles');
    const groupIds = [...new Set(data.groups ?? [])].filter((g) => g !== AUTHENTICATED_USERS);
    const groups = await this.groups.byIds(groupIds);
    const missing = groupIds.filter((g) => !groups.some((found) => found._id === g));
    if (missing.length)
      throw badRequest(
        `Unknown groups: ${missing.join(', ')}`,
        missing.map((g) => ({ field: `groups.${g}`, message: 'no such group' })),
      );
    if (id === AUTHENTICATED_USERS || (await this.groups.byId(id)))
      throw conflict(`The id "${id}" is taken by a group`);

    const user: UserDoc = {
      _id: id,
      login: id,
      email: data.email ?? '',
      fullname: data.fullname ?? '',
      description: data.description ?? '',
      home_page: data.home_page ?? '',
      location: data.location ?? '',
      roles,
      password_hash: await hashPassword(data.password!),
      version: 1,
    };
    if (!(await this.users.insert(user))) throw conflict(`A user "${id}" already exists`);
    for (const group of groups) await this.addMember(group, id);
    return (await this.views([user]))[0];
  }

  async update(caller: UserCaller, id: string, input: () => UserChanges): Promise<void> {
    requireSelfOrManager(caller, id);
    const manager = isManager(caller);
    const data = input();
    if (data.roles !== undefined && !manager) throw new NullDenial();
    if (data.roles) checkAssignable(Object.keys(data.roles), 'roles');
    const portrait = data.portrait ? parsePortrait(data.portrait, this.portraitMaxBytes) : data.portrait;
    if (data.old_password !== undefined && data.password === undefined)
      throw badRequest('old_password is only used with password', [
        { field: 'old_password', message: 'given without password' },
      ]);
    if (data.email === '' || data.email === null) {
      if (await this.settings.useEmailAsLogin(caller.requestId))
        throw badRequest('The e-mail address is the login name; it cannot be empty', [
          { field: 'email', message: 'required: the e-mail address is the login name' },
        ]);
    }

    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const user = await this.users.byId(id);
      if (!user) throw notFound(`No user ${id}`);
      const next: Partial<UserDoc> = {};
      for (const field of PROFILE_FIELDS) if (data[field] !== undefined) next[field] = data[field] ?? '';
      if (data.roles) next.roles = applyToggles(user.roles, data.roles);
      if (data.password !== undefined) {
        if (!manager) await checkOldPassword(user, data.old_password);
        next.password_hash = await hashPassword(data.password);
      }
      next.version = (user.version ?? 0) + 1;
      if (await this.users.update(id, user.version, next)) {
        await this.writePortrait(id, portrait);
        if (next.password_hash || (next.roles && !sameSet(next.roles, user.roles))) await this.changes.userChanged(id);
        return;
      }
    }
    throw conflict('The user is being changed by others; try again');
  }

  async remove(caller: UserCaller, id: string): Promise<void> {
    requireManager(caller);
    const payload: IdentityUserRemoved = { user_id: id };
    if (!(await this.users.tombstone(id, newEvent('identity.user.removed', payload, caller.requestId)))) {
      throw notFound(`No user ${id}`);
    }
    await this.users.removePortrait(id);
    await this.groups.removeMemberEverywhere(id);
    await this.changes.userChanged(id);
    await this.relay.flushUser(id);
  }

  /** A user's portrait (the caller's own without an id); anyone may see portraits. */
  async portrait(caller: UserCaller, id: string | undefined): Promise<{ contentType: string; bytes: Buffer }> {
    const userId = id ?? caller.principal?.id;
    if (!userId) throw notFound('Anonymous callers have no portrait');
    const stored = await this.users.portrait(userId);
    if (!stored) throw notFound(`No portrait for ${userId}`);
    return { contentType: stored.content_type, bytes: Buffer.from(stored.data, 'base64') };
  }

  private async writePortrait(id: string, portrait: Portrait | null | undefined): Promise<void> {
    if (portrait === undefined) return;
    if (portrait === null) return this.users.removePortrait(id);
    await this.users.setPortrait({
      _id: id,
      content_type: portrait.contentType,
      filename: portrait.filename,
      data: portrait.bytes.toString('base64'),
      size: portrait.bytes.length,
    });
  }

  private async addMember(group: GroupDoc, member: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.groups.byId(group._id);
      if (!current || current.members.includes(member)) return;
      const members = [...current.members, member];
      if (await this.groups.update(current._id, current.version, { members, version: current.version + 1 })) {
        await this.changes.userChanged(member);
        return;
      }
    }
    throw conflict(`The group ${group._id} is being changed by others; try again`);
  }

  /** Users with their groups, roles and portrait flags; group data is read once for a listing. */
  private async views(users: UserDoc[]): Promise<UserView[]> {
    const memberships =
      users.length > 1 ? new Memberships(new InMemoryGroups(await this.groups.list())) : this.memberships;
    const portraits = await this.users.withPortraits(users.map((u) => u._id));
    return Promise.all(
      users.map(async (user) => {
        const groups = await memberships.groupsOf(user._id);
        return {
          user,
          groups: [
            { id: AUTHENTICATED_USERS, title: AUTHENTICATED_USERS },
            ...groups.map((g) => ({ id: g._id, title: g.title || g._id })),
          ].sort((a, b) => compareIds(a.id, b.id)),
          roles: displayRoles([...user.roles, ...groups.flatMap((g) => g.roles)]),
          hasPortrait: portraits.has(user._id),
        };
      }),
    );
  }
}

function isManager(caller: UserCaller): boolean {
  return effectiveRoles(caller.principal).has('Manager');
}

function requireManager(caller: UserCaller): void {
  if (!isManager(caller)) throw new NullDenial();
}

function requireSelfOrManager(caller: UserCaller, id: string): void {
  if (caller.principal?.id !== id && !isManager(caller)) throw new NullDenial();
}

async function checkOldPassword(user: UserDoc, oldPassword: string | undefined): Promise<void> {
  if (oldPassword === undefined)
    throw badRequest('Give old_password to change your password', [
      { field: 'old_password', message: 'required to change your own password' },
    ]);
  if (!(await verifyPassword(oldPassword, user.password_hash)))
    throw badRequest('The old password is wrong', [{ field: 'old_password', message: 'wrong password' }]);
}

function applyToggles(roles: string[], toggles: Record<string, boolean>): string[] {
  const next = new Set(roles);
  for (const [role, on] of Object.entries(toggles)) {
    if (on) next.add(role);
    else next.delete(role);
  }
  return [...next];
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
