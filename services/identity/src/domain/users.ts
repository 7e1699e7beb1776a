import { randomUUID } from 'node:crypto';
import {
  AppError,
  badRequest,
  clip,
  conflict,
  rolesHere,
  newEvent,
  notFound,
  type EventEnvelope,
  type FieldError,
  type IdentityUserRemoved,
  type Principal__Output,
} from '@cms/shared';
import { AUTHENTICATED_USERS, type GroupDoc } from './group';
import type { GroupStore } from './groups-repository';
import { InMemoryGroups, Memberships, compareIds } from './groups-membership';
import { hashPassword, verifyPassword } from './passwords';
import { parsePortrait, type Portrait, type PortraitUpload } from './portrait';
import { checkAssignable, displayRoles } from './roles';
import { newTokenGeneration, type UserDoc } from './user';
import type { LoginSettings, StoredPortrait, UserStore } from './users-repository';
import type { WriteRetry } from '@cms/shared';
import { WritePath, type EventFlusher, type PrincipalChanges, type SideWrite } from './write-path';

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

/** The `@users` and `@portrait` rules. */
/** A new user, checked and ready to be written. */
interface CheckedUser {
  user: UserDoc;
  groups: string[];
}

export class UserCommands {
  private readonly userWrites: WritePath<UserDoc>;
  private readonly groupWrites: WritePath<GroupDoc>;

  constructor(
    private readonly users: UserStore,
    private readonly groups: GroupStore,
    private readonly memberships: Memberships,
    relay: EventFlusher,
    private readonly settings: LoginSettings,
    changes: PrincipalChanges,
    private readonly portraitMaxBytes: number,
    /** How conflicting writes are retried (tests give their own sleep). */
    retry?: Partial<WriteRetry>,
  ) {
    this.userWrites = new WritePath(users, { kind: 'user', flush: (id) => relay.flushUser(id), changes, retry });
    this.groupWrites = new WritePath(groups, { kind: 'group', flush: (id) => relay.flushGroup(id), changes, retry });
  }

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
    const emailLogin = await this.settings.useEmailAsLogin(caller.requestId);
    const checked = await this.checked(input(), emailLogin);
    await this.insert(checked);
    return (await this.views([checked.user]))[0];
  }

  /**
   * Several users at once (a CSV import): every one is checked first, each id once and free; a refusal names the
   * entry (`labels[i]`, e.g. its line) and nothing is created. Should a write fail midway, the users already
   * created are taken back.
   */
  async createMany(caller: UserCaller, inputs: NewUser[], labels: readonly string[]): Promise<UserView[]> {
    requireManager(caller);
    const emailLogin = await this.settings.useEmailAsLogin(caller.requestId);
    const errors: FieldError[] = [];
    const all: CheckedUser[] = [];
    for (const [i, data] of inputs.entries()) {
      try {
        all.push(await this.checked(data, emailLogin));
      } catch (error) {
        if (!(error instanceof AppError) || !['BadRequest', 'Conflict'].includes(error.type)) throw error;
        errors.push({ field: labels[i], message: error.message });
      }
    }
    const ids = all.map((c) => c.user._id);
    const existing = new Set((await this.users.byIds(ids)).map((u) => u._id));
    for (const [i, id] of ids.entries()) {
      if (existing.has(id)) errors.push({ field: labels[i], message: `a user "${id}" already exists` });
      else if (ids.indexOf(id) !== i) errors.push({ field: labels[i], message: `the user "${id}" is given twice` });
    }
    if (errors.length) {
      const text = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      throw badRequest(`Users not created, none of them: ${clip(text, 1000)}`, errors);
    }
    const created: string[] = [];
    try {
      for (const checked of all) {
        await this.insert(checked);
        created.push(checked.user._id);
      }
    } catch (error) {
      for (const id of created) await this.removeUser(id, []).catch(() => undefined);
      throw error;
    }
    return this.views(all.map((c) => c.user));
  }

  /** A new user's record and the groups it joins, every rule checked; nothing is written. */
  private async checked(data: NewUser, emailLogin: boolean): Promise<CheckedUser> {
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
      // Tokens of a removed account with this id are not this one's.
      token_generation: newTokenGeneration(),
      version: 1,
    };
    return { user, groups: groups.map((g) => g._id) };
  }

  /** Writes a checked user and its memberships; a user who could not join every group is taken back. */
  private async insert({ user, groups }: CheckedUser): Promise<void> {
    if (!(await this.userWrites.insert(user))) throw conflict(`A user "${user._id}" already exists`);
    try {
      for (const group of groups) await this.join(group, user._id);
    } catch (error) {
      // A failed request creates nothing.
      await this.removeUser(user._id, []).catch(() => undefined);
      throw error;
    }
  }

  /** Everything is checked before the first write; a new portrait is stored beside the user's record, or not at all. */
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
    const profile: Partial<UserDoc> = {};
    for (const field of PROFILE_FIELDS) if (data[field] !== undefined) profile[field] = data[field] ?? '';
    const passwordHash = data.password === undefined ? undefined : await hashPassword(data.password);

    await this.userWrites.change(
      id,
      async (user) => {
        if (passwordHash !== undefined && !manager) await checkOldPassword(user, data.old_password);
        const set: Partial<UserDoc> = { ...profile };
        if (data.roles) set.roles = applyToggles(user.roles, data.roles);
        if (passwordHash !== undefined) {
          set.password_hash = passwordHash;
          // A new password ends the sessions opened with the old one.
          set.token_generation = newTokenGeneration();
        }
        const rolesChanged = set.roles !== undefined && !sameSet(set.roles, user.roles);
        return { set, announce: passwordHash !== undefined || rolesChanged ? { user: id } : undefined };
      },
      { alongside: portrait === undefined ? undefined : portraitWrite(this.users, id, portrait) },
    );
  }

  async remove(caller: UserCaller, id: string): Promise<void> {
    requireManager(caller);
    const payload: IdentityUserRemoved = { user_id: id };
    await this.removeUser(id, [newEvent('identity.user.removed', payload, caller.requestId)]);
  }

  /** A user's portrait (the caller's own without an id); anyone may see portraits. */
  async portrait(caller: UserCaller, id: string | undefined): Promise<{ contentType: string; bytes: Buffer }> {
    const userId = id ?? caller.principal?.id;
    if (!userId) throw notFound('Anonymous callers have no portrait');
    const stored = await this.users.portrait(userId);
    if (!stored) throw notFound(`No portrait for ${userId}`);
    return { contentType: stored.content_type, bytes: Buffer.from(stored.data, 'base64') };
  }

  /** The user becomes a tombstone carrying `events`; its portrait and memberships go after it. */
  private async removeUser(id: string, events: EventEnvelope[]): Promise<void> {
    await this.userWrites.change(id, () => ({
      remove: true,
      events,
      followUp: async () => {
        await this.users.removePortrait(id);
        await this.groups.removeMemberEverywhere(id);
      },
      announce: { user: id },
    }));
  }

  /** Adds a member to a group, unless it is there already or the group is gone. */
  private async join(groupId: string, member: string): Promise<void> {
    await this.groupWrites.change(
      groupId,
      (group) =>
        group.members.includes(member)
          ? null
          : { set: { members: [...group.members, member] }, announce: { user: member } },
      { ifMissing: 'skip' },
    );
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

/**
 * Stores (or removes) a user's portrait before the user's record is written,
 * and puts the previous one back if that write does not commit; a user
 * removed meanwhile is left without one.
 */
function portraitWrite(users: UserStore, id: string, portrait: Portrait | null): SideWrite {
  const takeBack = (revision: string | null, previous: StoredPortrait | null) => async () => {
    const live = await users.byId(id);
    await users.restorePortrait(id, revision, live ? previous : null);
  };
  return {
    async apply() {
      if (portrait === null) return takeBack(null, await users.removePortrait(id));
      const revision = randomUUID();
      const previous = await users.replacePortrait({
        _id: id,
        content_type: portrait.contentType,
        filename: portrait.filename,
        data: portrait.bytes.toString('base64'),
        size: portrait.bytes.length,
        revision,
      });
      return takeBack(revision, previous);
    },
  };
}

function isManager(caller: UserCaller): boolean {
  return rolesHere(caller.principal).has('Manager');
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
