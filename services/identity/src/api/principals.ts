import {
  BASIC_CHALLENGE,
  badRequest,
  notFound,
  requirePermission,
  unauthorized,
  type EndpointTable,
} from '@cms/shared';
import type { GroupCommands } from '../domain/groups';
import { groupJson } from '../domain/groups-serialize';
import { ROLE_LISTING } from '../domain/roles';
import type { UserCommands } from '../domain/users';
import { userJson } from '../domain/users-serialize';

const DEFAULT_LIMIT = 25;

/** `@roles` (the assignable roles) and `@principals` (users and groups found by a text). */
export function principalEndpoints(users: UserCommands, groups: GroupCommands): EndpointTable {
  return {
    roles: {
      GET: async (ctx) => {
        if (!ctx.principal) throw unauthorized('Log in to see the roles', BASIC_CHALLENGE);
        if (ctx.request.sub_path.length > 0)
          throw notFound(`No such resource: @roles/${ctx.request.sub_path.join('/')}`);
        return {
          status: 200,
          body: ROLE_LISTING.map((role) => ({
            '@id': `${ctx.publicUrl}/@roles/${role}`,
            '@type': 'role',
            id: role,
            title: role,
          })),
        };
      },
    },
    principals: {
      GET: async (ctx) => {
        requirePermission(ctx.principal, 'Manage users');
        if (ctx.request.sub_path.length > 0)
          throw notFound(`No such resource: @principals/${ctx.request.sub_path.join('/')}`);
        const search = ctx.query.get('search');
        if (!search) throw badRequest('Give the text to search for', [{ field: 'search', message: 'required' }]);
        const [foundUsers, foundGroups] = await Promise.all([users.find(search, DEFAULT_LIMIT), groups.search(search)]);
        return {
          status: 200,
          body: {
            groups: foundGroups.slice(0, DEFAULT_LIMIT).map((g) => groupJson(g, ctx.publicUrl)),
            users: foundUsers.map((u) => userJson(u, ctx.publicUrl)),
          },
        };
      },
    },
  };
}
