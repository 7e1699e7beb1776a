/** `@logout`: revokes the Bearer token presented (204), on every gateway before it answers. */
import { BASIC_CHALLENGE, badRequest, unauthorized } from '@cms/shared';
import { bearerToken } from './credentials';
import { endpoint, operation } from './declarations';

export const logout = endpoint({
  name: 'logout',
  service: 'identity',
  context: 'site-root',
  // The gateway verifies the header and passes it on, so that the token itself can be revoked here.
  auth: 'forward',
  operations: {
    POST: operation({
      summary: 'Revokes the caller’s token',
      permission: null, // any authenticated caller; checked below with the right challenge
      handle: async (call, { tokens }) => {
        const token = bearerToken(call);
        if (!token) {
          if (!call.principal) throw unauthorized('Authentication required to log out', BASIC_CHALLENGE);
          throw badRequest('@logout revokes a login token; this request carries none (Authorization: Bearer <token>)');
        }
        // Revoked on every gateway before the answer: the token is refused from the very next request on.
        await tokens.revoke(await tokens.verify(token));
        return { status: 204 };
      },
    }),
  },
});
