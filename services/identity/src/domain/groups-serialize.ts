import type { GroupView } from './groups';

/** The group resource as the reference transcripts show it; `members` only in full views. */
export function groupJson(group: GroupView, publicUrl: string, membersUrl?: string): Record<string, unknown> {
  const json: Record<string, unknown> = {
    '@id': `${publicUrl}/@groups/${group.id}`,
    description: group.description,
    email: group.email,
    groupname: group.id,
    id: group.id,
  };
  if (membersUrl !== undefined) {
    json.members = { '@id': membersUrl, items: group.members, items_total: group.members.length };
  }
  return { ...json, roles: group.roles, title: group.title };
}
