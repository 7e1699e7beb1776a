import { notFound, unary, type IdentityServiceHandlers, type Logger } from '@cms/shared';
import type { UserDirectory } from '../domain/user-directory';

/** Look-ups other services make: a user's principal, and users and groups by text or id. */
export function principalRpcs(
  directory: UserDirectory,
  log: Logger,
): Pick<IdentityServiceHandlers, 'GetPrincipal' | 'SearchPrincipals' | 'DescribePrincipals'> {
  return {
    GetPrincipal: unary(log, async (request: { id: string }) => {
      const principal = await directory.principal(request.id);
      if (!principal) throw notFound(`No user ${request.id}`);
      return principal;
    }),
    SearchPrincipals: unary(log, async (request: { text: string; limit: number }) => ({
      items: await directory.search(request.text, request.limit),
    })),
    DescribePrincipals: unary(log, async (request: { ids: string[]; with_email?: boolean }) => ({
      items: await directory.describe(request.ids, { withEmail: request.with_email === true }),
    })),
  };
}
