/**
 * `@login` (addendum §5): `POST` → `{token}`, a signed JWT for `Authorization: Bearer`; `GET` lists external
 * login providers: none. The gateway ignores any Authorization header here (addendum §7: a stale token must
 * not block a new login).
 */
import { z } from 'zod';
import { endpoint, operation } from './declarations';

const loginBody = z.object({
  login: z.string().min(1),
  password: z.string().min(1),
});

export const login = endpoint({
  name: 'login',
  service: 'identity',
  context: 'site-root',
  auth: 'ignore',
  operations: {
    GET: operation({
      summary: 'The external login options (none)',
      permission: null, // anyone may ask how to log in
      handle: async () => ({ status: 200, body: { options: [] } }),
    }),
    POST: operation({
      summary: 'Logs in with a login name and password; answers a token',
      permission: null, // the credentials in the body are the check
      body: loginBody,
      handle: async (call, { authenticator, tokens }) => {
        const user = await authenticator.verifyPassword(call.body.login, call.body.password);
        return { status: 200, body: { token: await tokens.issue(user) } };
      },
    }),
  },
});
