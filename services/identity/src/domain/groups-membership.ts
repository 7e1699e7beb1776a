import { AUTHENTICATED_USERS, type GroupDoc } from './group';
import type { GroupStore } from './groups-repository';
import type { Membership } from './user';

/** The look-ups membership resolution needs: the store, or a snapshot of every group. */
export type GroupLookup = Pick<GroupStore, 'containing' | 'byIds'>;

/** Every group held in memory, for resolving many principals with one read. */
export class InMemoryGroups implements GroupLookup {
  private readonly byId = new Map<string, GroupDoc>();

  constructor(groups: readonly GroupDoc[]) {
    for (const group of groups) this.byId.set(group._id, group);
  }

  async containing(memberIds: string[]): Promise<GroupDoc[]> {
    return [...this.byId.values()].filter((g) => g.members.some((m) => memberIds.includes(m)));
  }

  async byIds(ids: string[]): Promise<GroupDoc[]> {
    return ids.flatMap((id) => this.byId.get(id) ?? []);
  }
}

/** Groups may contain groups; resolution stops at this depth (and never loops on a cycle). */
const MAX_DEPTH = 16;

/**
 * Group membership across nesting: a principal is in a group when it is a
 * member, or a member of a group that is a member, and so on. Every user is
 * also in the virtual group `AuthenticatedUsers`.
 */
export class Memberships {
  constructor(private readonly groups: GroupLookup) {}

  /** Every group that contains the principal, directly or through other groups. */
  async groupsOf(principalId: string): Promise<GroupDoc[]> {
    const found = new Map<string, GroupDoc>();
    let frontier = [principalId];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
      const parents = await this.groups.containing(frontier);
      frontier = [];
      for (const group of parents) {
        if (found.has(group._id) || group._id === principalId) continue;
        found.set(group._id, group);
        frontier.push(group._id);
      }
    }
    return [...found.values()].sort((a, b) => compareIds(a._id, b._id));
  }

  /** A user's groups (`AuthenticatedUsers` included) and the roles they give. */
  async ofUser(userId: string): Promise<Membership> {
    const groups = await this.groupsOf(userId);
    return {
      groups: [AUTHENTICATED_USERS, ...groups.map((g) => g._id)].sort(compareIds),
      roles: [...new Set(groups.flatMap((g) => g.roles))],
    };
  }

  /** A group's own roles plus those of the groups it belongs to. */
  async rolesOfGroup(group: GroupDoc): Promise<string[]> {
    const parents = await this.groupsOf(group._id);
    return [...new Set([...group.roles, ...parents.flatMap((g) => g.roles)])];
  }

  /**
   * The user ids in any of the groups, members of nested groups included;
   * null when `AuthenticatedUsers` is among them (every user).
   */
  async usersIn(groupIds: string[]): Promise<string[] | null> {
    if (groupIds.includes(AUTHENTICATED_USERS)) return null;
    const seenGroups = new Set<string>();
    const candidates = new Set<string>();
    let frontier = [...new Set(groupIds)];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
      const groups = await this.groups.byIds(frontier.filter((id) => !seenGroups.has(id)));
      for (const id of frontier) seenGroups.add(id);
      const members = groups.flatMap((g) => g.members);
      // A member is a group when such a group exists; the rest are user ids.
      const nested = new Set((await this.groups.byIds(members)).map((g) => g._id));
      frontier = [];
      for (const member of members) {
        if (nested.has(member)) {
          if (!seenGroups.has(member)) frontier.push(member);
        } else candidates.add(member);
      }
    }
    return [...candidates];
  }
}

/** Plain code-unit order, as ids are listed everywhere (`Reviewers` before `cmsteam`). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
