import type { Principal } from '@cms/shared';
import { AUTHENTICATED_USERS, AUTHENTICATED_USERS_TITLE, type GroupDoc } from './group';
import type { GroupStore } from './groups-repository';
import { InMemoryGroups, Memberships } from './groups-membership';
import { principalOf, type UserDoc } from './user';
import type { UserStore } from './users-repository';

/** A user or group as other services see it (PrincipalSummary in identity.proto). */
export interface PrincipalSummary {
  id: string;
  title: string;
  type: 'user' | 'group';
  /** A user's global roles (its groups' included); a group's: those it gives its members. */
  roles: string[];
  /** True for a user with a portrait (comments show its URL); unset otherwise. */
  has_portrait?: true;
  /** A user's address, only for callers that asked (`with_email`): services that mail users. */
  email?: string;
}

export const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 1000;

/**
 * Users and groups as the authenticator and the look-up RPCs see them: found
 * by login name or id, resolved to a Principal that carries the roles of their
 * groups, searched and described for other services.
 */
export class UserDirectory {
  constructor(
    private readonly users: UserStore,
    private readonly groups: GroupStore,
    private readonly memberships: Memberships,
  ) {}

  async principalOf(user: UserDoc): Promise<Principal> {
    return principalOf(user, await this.memberships.ofUser(user._id));
  }

  /** The principal of a user id, or null when there is no such user. */
  async principal(id: string): Promise<Principal | null> {
    const user = await this.users.byId(id);
    return user ? this.principalOf(user) : null;
  }

  /** Users whose id, full name or e-mail, and groups whose id or title contain the text (case-insensitive). */
  async search(text: string, limit: number): Promise<PrincipalSummary[]> {
    const max = limit > 0 ? Math.min(limit, MAX_SEARCH_LIMIT) : DEFAULT_SEARCH_LIMIT;
    const [{ items: users }, groups] = await Promise.all([
      this.users.list({ text: text || undefined }, max),
      this.groups.list(text || undefined),
    ]);
    const needle = text.toLowerCase();
    const virtual = [AUTHENTICATED_USERS, AUTHENTICATED_USERS_TITLE].some((s) => s.toLowerCase().includes(needle))
      ? [virtualGroup()]
      : [];
    const summaries = [...(await this.userSummaries(users)), ...groups.map(groupSummary), ...virtual];
    return summaries.slice(0, max);
  }

  /** Titles and types of the given ids, in the order asked; unknown ids are left out. */
  async describe(ids: string[], options: { withEmail?: boolean } = {}): Promise<PrincipalSummary[]> {
    const [users, groups] = await Promise.all([this.users.byIds(ids), this.groups.byIds(ids)]);
    const found = new Map<string, PrincipalSummary>();
    for (const summary of await this.userSummaries(users, options.withEmail === true)) found.set(summary.id, summary);
    for (const group of groups) found.set(group._id, groupSummary(group));
    found.set(AUTHENTICATED_USERS, virtualGroup());
    return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
  }

  private async userSummaries(users: UserDoc[], withEmail = false): Promise<PrincipalSummary[]> {
    if (users.length === 0) return [];
    const memberships =
      users.length > 1 ? new Memberships(new InMemoryGroups(await this.groups.list())) : this.memberships;
    const portraits = await this.users.withPortraits(users.map((user) => user._id));
    return Promise.all(
      users.map(async (user) => ({
        id: user._id,
        title: user.fullname || user._id,
        type: 'user' as const,
        roles: principalOf(user, await memberships.ofUser(user._id)).roles ?? [],
        ...(portraits.has(user._id) ? { has_portrait: true as const } : {}),
        ...(withEmail && user.email ? { email: user.email } : {}),
      })),
    );
  }
}

function groupSummary(group: GroupDoc): PrincipalSummary {
  return { id: group._id, title: group.title || group._id, type: 'group', roles: group.roles };
}

function virtualGroup(): PrincipalSummary {
  return { id: AUTHENTICATED_USERS, title: AUTHENTICATED_USERS_TITLE, type: 'group', roles: [] };
}
