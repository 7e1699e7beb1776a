/** `@principals`: users and groups whose id, name or e-mail contains a text (for sharing forms). */
import { param } from '@cms/shared';
import { z } from 'zod';
import { groupJson } from '../domain/groups-serialize';
import { userJson } from '../domain/users-serialize';
import { endpoint, operation } from './declarations';

const LIMIT = 25;

export const principals = endpoint({
  name: 'principals',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'Users and groups matching `search`',
      permission: 'Manage users',
      query: z.object({ search: param.string().pipe(z.string().min(1, 'give the text to search for')) }),
      handle: async (call, { users, groups }) => {
        const text = call.query.search;
        const [foundUsers, foundGroups] = await Promise.all([users.find(text, LIMIT), groups.search(text)]);
        return {
          status: 200,
          body: {
            groups: foundGroups.slice(0, LIMIT).map((g) => groupJson(g, call.publicUrl)),
            users: foundUsers.map((u) => userJson(u, call.publicUrl)),
          },
        };
      },
    }),
  },
});
