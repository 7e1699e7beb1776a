import { badRequest, notFound, unauthorized, unary, type IdentityServiceHandlers, type Logger } from '@cms/shared';
import type { AuthenticateRequest__Output } from '@cms/shared';
import type { Authenticator } from '../domain/authenticator';
import { principalOf } from '../domain/user';
import type { UsersRepository } from '../store/users';

/** Typed RPCs the gateway and other services call. */
export function identityRpcs(
  authenticator: Authenticator,
  users: UsersRepository,
  log: Logger,
): Omit<IdentityServiceHandlers, 'Handle'> {
  return {
    Authenticate: unary(log, async (request: AuthenticateRequest__Output) => {
      if (request.basic) return authenticator.basic(request.basic.login, request.basic.password);
      // No token has been issued by this service, so none is valid.
      if (request.bearer_token) throw unauthorized('Invalid or expired token');
      throw badRequest('No credentials given');
    }),
    GetPrincipal: unary(log, async (request: { id: string }) => {
      const user = await users.byId(request.id);
      if (!user) throw notFound(`No user ${request.id}`);
      return principalOf(user);
    }),
  };
}
