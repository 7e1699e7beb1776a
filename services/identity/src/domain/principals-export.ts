/**
 * Users and groups for a site export (plone.exportimport's principals.json): every group, then every user a page
 * at a time, each with what Plone writes of it. Memberships are direct ones (an importer adds each), read from one
 * snapshot of the groups; password hashes are left out (ours are not Plone's).
 */
import type { ExportedPrincipal } from '@cms/shared';
import { AUTHENTICATED_USERS, type GroupDoc } from './group';
import type { GroupStore } from './groups-repository';
import type { UserStore } from './users-repository';

/** Users read from the store at a time. */
const USER_PAGE_SIZE = 200;

/** Roles every principal has implicitly: Plone leaves them out of principals.json. */
const IMPLICIT_ROLES = new Set(['Anonymous', 'Authenticated']);

const ownRoles = (roles: readonly string[]) => roles.filter((role) => !IMPLICIT_ROLES.has(role)).sort();

export async function* exportedPrincipals(users: UserStore, groupStore: GroupStore): AsyncGenerator<ExportedPrincipal> {
  const groups = (await groupStore.list()).filter((group) => group._id !== AUTHENTICATED_USERS);
  // Member id → the groups it is a direct member of: a few bytes per membership.
  const groupsOf = new Map<string, string[]>();
  for (const group of groups)
    for (const member of group.members) groupsOf.set(member, [...(groupsOf.get(member) ?? []), group._id]);
  const directGroups = (id: string) => [...(groupsOf.get(id) ?? [])].sort();
  for (const group of groups) yield { group: exportedGroup(group, directGroups(group._id)) };
  let after: string | undefined;
  for (;;) {
    const { items } = await users.list({ after }, USER_PAGE_SIZE);
    for (const user of items)
      yield {
        user: {
          id: user._id,
          login: user.login,
          fullname: user.fullname ?? '',
          email: user.email ?? '',
          description: user.description ?? '',
          home_page: user.home_page ?? '',
          location: user.location ?? '',
          roles: ownRoles(user.roles),
          groups: directGroups(user._id),
        },
      };
    if (items.length < USER_PAGE_SIZE) return;
    after = items[items.length - 1]._id;
  }
}

function exportedGroup(group: GroupDoc, groups: string[]): NonNullable<ExportedPrincipal['group']> {
  return {
    id: group._id,
    title: group.title ?? '',
    description: group.description ?? '',
    email: group.email ?? '',
    roles: ownRoles(group.roles),
    groups,
    members: [...group.members].sort(),
  };
}
