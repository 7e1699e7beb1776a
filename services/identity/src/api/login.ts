import { badRequest, BASIC_CHALLENGE, unauthorized, type EndpointTable, type RequestContext } from '@cms/shared';
import { z } from 'zod';
import type { Authenticator } from '../domain/authenticator';
import type { TokenService, UserById } from '../domain/tokens';

const loginBody = z.object({
  login: z.string().min(1),
  password: z.string().min(1),
});

export interface LoginDeps {
  authenticator: Authenticator;
  tokens: TokenService;
  users: UserById;
}

/**
 * Token login (addendum §5): `POST @login` → `{token}`, `POST @login-renew` →
 * a new token (the one presented is revoked), `POST @logout` → 204 (the token
 * is revoked). `GET @login` lists external login providers: none.
 *
 * The gateway does not authenticate `@login` (a stale token must not block a
 * new login, addendum §7) and passes the Authorization header on to
 * `@login-renew` and `@logout` only, after verifying it, so that the token
 * itself can be revoked here.
 */
export function loginEndpoints({ authenticator, tokens, users }: LoginDeps): EndpointTable {
  return {
    login: {
      GET: async () => ({ status: 200, body: { options: [] } }),
      POST: async (ctx) => {
        const { login, password } = ctx.body(loginBody);
        const user = await authenticator.verifyPassword(login, password);
        return { status: 200, body: { token: await tokens.issue(user) } };
      },
    },
    'login-renew': {
      POST: async (ctx) => {
        const token = bearerToken(ctx);
        if (token) {
          const { claims, user } = await tokens.user(token);
          if (!(await tokens.revoke(claims))) throw unauthorized('Token has been revoked (logged out)');
          return { status: 200, body: { token: await tokens.issue(user) } };
        }
        // Authenticated otherwise (Basic): a token for the same user, nothing to revoke.
        const user = ctx.principal ? await users.byId(ctx.principal.id) : null;
        if (!user) throw unauthorized('Authentication required to renew a login', BASIC_CHALLENGE);
        return { status: 200, body: { token: await tokens.issue(user) } };
      },
    },
    logout: {
      POST: async (ctx) => {
        const token = bearerToken(ctx);
        if (!token) {
          if (!ctx.principal) throw unauthorized('Authentication required to log out', BASIC_CHALLENGE);
          throw badRequest('@logout revokes a login token; this request carries none (Authorization: Bearer <token>)');
        }
        // Revoked on every gateway before the answer: the token is refused from the very next request on.
        await tokens.revoke(await tokens.verify(token));
        return { status: 204 };
      },
    },
  };
}

function bearerToken(ctx: RequestContext): string | undefined {
  const header = ctx.header('authorization');
  const match = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}
