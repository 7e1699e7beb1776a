/**
 * `@login` (addendum §5): `POST` → `{token}`, a signed JWT for `Authorization: Bearer`; `GET` lists external
 * login providers: none. The gateway ignores any Authorization header here (addendum §7: a stale token must
 * not block a new login).
 */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../domain/passwords';
import { MAX_LOGIN_LENGTH } from '../domain/user';
import { clientAddressOfCall } from './calls';
import { endpoint, operation } from './declarations';

const loginBody = z.object({
  login: z.string().min(1).max(MAX_LOGIN_LENGTH, `at most ${MAX_LOGIN_LENGTH} characters`),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`),
});

export const login = endpoint({
  name: 'login',
  service: 'identity',
  context: 'site-root',
  auth: 'ignore',
  operations: {
    GET: operation({
      summary: 'The external login options (none)',
      permission: { public: 'anyone may ask how to log in' },
      handle: async () => ({ status: 200, body: { options: [] } }),
    }),
    POST: operation({
      summary: 'Logs in with a login name and password; answers a token',
      permission: { public: 'the credentials in the body are the check' },
      body: loginBody,
      handle: async (call, { authenticator, tokens }) => {
        const { login, password } = call.body;
        const user = await authenticator.verifyPassword(login, password, clientAddressOfCall(call));
        return { status: 200, body: { token: await tokens.issue(user) } };
      },
    }),
  },
});
