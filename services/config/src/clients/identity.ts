import { AppError, callUnary, createClient, protos, type Principal__Output } from '@cms/shared';
import type { Actor } from '../domain/rule-matching';

/**
 * Identity as content rules ask it: a user's groups and global roles (`GetPrincipal`) for the group and role
 * conditions, and their address (`DescribePrincipals`) for the Mail action's `exclude_actor`. Connected on first use, since the embedded suite starts config before identity.
 */
export function remoteActors(address: () => string, timeoutMs: number, maxMessageBytes: number) {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().identity.IdentityService, address(), maxMessageBytes);
  return {
    async actor(userId: string, requestId: string): Promise<Actor | null> {
      const identity = (client ??= connect());
      try {
        const principal = await callUnary<Principal__Output>(
          (md, o, cb) => identity.GetPrincipal({ id: userId }, md, o, cb),
          { requestId, timeoutMs },
        );
        return { groups: principal.groups, roles: principal.roles };
      } catch (error) {
        if (error instanceof AppError && error.type === 'NotFound') return null;
        throw error;
      }
    },
    /** The user's e-mail address (the Mail action's `exclude_actor`); null for a user without one or gone. */
    async email(userId: string, requestId: string): Promise<string | null> {
      const identity = (client ??= connect());
      const { items } = await callUnary<{ items: { id: string; email?: string }[] }>(
        (md, o, cb) => identity.DescribePrincipals({ ids: [userId], with_email: true }, md, o, cb),
        { requestId, timeoutMs },
      );
      return items.find((item) => item.id === userId)?.email || null;
    },
    close: () => client?.close(),
  };
}
