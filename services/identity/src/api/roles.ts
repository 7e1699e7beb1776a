/** `@roles`: the roles that can be assigned, for logged-in callers. */
import { ROLE_LISTING } from '../domain/roles';
import { endpoint, operation } from './declarations';

export const roles = endpoint({
  name: 'roles',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The assignable roles',
      permission: { authenticated: 'the roles are shown to whoever may be given one' },
      handle: async (call) => {
        return {
          status: 200,
          body: ROLE_LISTING.map((role) => ({
            '@id': `${call.publicUrl}/@roles/${role}`,
            '@type': 'role',
            id: role,
            title: role,
          })),
        };
      },
    }),
  },
});
