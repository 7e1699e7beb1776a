/** `@roles`: the roles that can be assigned, for logged-in callers. */
import { BASIC_CHALLENGE, unauthorized } from '@cms/shared';
import { ROLE_LISTING } from '../domain/roles';
import { endpoint, operation } from './declarations';

export const roles = endpoint({
  name: 'roles',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The assignable roles',
      permission: null, // any logged-in caller; checked below
      handle: async (call) => {
        if (!call.principal) throw unauthorized('Log in to see the roles', BASIC_CHALLENGE);
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
