/** `@login-renew`: a new token for the caller; the Bearer token presented is revoked. */
import { BASIC_CHALLENGE, unauthorized } from '@cms/shared';
import { bearerToken } from './credentials';
import { endpoint, operation } from './declarations';

export const loginRenew = endpoint({
  name: 'login-renew',
  service: 'identity',
  context: 'site-root',
  // The gateway verifies the header and passes it on, so that the token itself can be revoked here.
  auth: 'forward',
  operations: {
    POST: operation({
      summary: 'Renews the caller’s token',
      permission: { authenticated: 'a login is renewed for the caller it belongs to' },
      handle: async (call, { tokens, accounts }) => {
        const token = bearerToken(call);
        if (token) {
          const { claims, user } = await tokens.user(token);
          if (!(await tokens.revoke(claims))) throw unauthorized('Token has been revoked (logged out)');
          return { status: 200, body: { token: await tokens.issue(user) } };
        }
        // Authenticated otherwise (Basic): a token for the same user, nothing to revoke.
        const user = call.principal ? await accounts.byId(call.principal.id) : null;
        if (!user) throw unauthorized('Authentication required to renew a login', BASIC_CHALLENGE);
        return { status: 200, body: { token: await tokens.issue(user) } };
      },
    }),
  },
});
