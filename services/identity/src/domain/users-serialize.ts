import type { UserView } from './users';

/** The User resource of the specification (`groups` omitted in summaries, e.g. in `@principals`). */
export function userJson(view: UserView, publicUrl: string, groupsUrl?: string): Record<string, unknown> {
  const { user } = view;
  const json: Record<string, unknown> = {
    '@id': `${publicUrl}/@users/${user._id}`,
    description: user.description || null,
    email: user.email || null,
    fullname: user.fullname || null,
  };
  if (groupsUrl !== undefined) {
    json.groups = { '@id': groupsUrl, items: view.groups, items_total: view.groups.length };
  }
  return {
    ...json,
    home_page: user.home_page || null,
    id: user._id,
    location: user.location || null,
    portrait: view.hasPortrait ? portraitUrl(publicUrl, user._id) : null,
    roles: view.roles,
    username: user.login,
  };
}

export function portraitUrl(publicUrl: string, userId: string): string {
  return `${publicUrl}/@portrait/${userId}`;
}
