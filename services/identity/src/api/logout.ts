/** `@logout`: revokes the Bearer token presented (204), on every gateway before it answers. */
import { badRequest } from '@cms/shared';
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
      permission: { authenticated: 'a caller logs its own token out' },
      handle: async (call, { tokens }) => {
        const token = bearerToken(call);
        if (!token) {
          throw badRequest('@logout revokes a login token; this request carries none (Authorization: Bearer <token>)');
        }
        // Revoked on every gateway before the answer: the token is refused from the very next request on.
        await tokens.revoke(await tokens.verify(token));
        return { status: 204 };
      },
    }),
  },
});
