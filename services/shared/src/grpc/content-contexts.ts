import { notFound } from '../errors/app-error';
import type { ContextServiceClient } from '../generated/cms/content/v1/ContextService';

export type { ContextServiceHandlers } from '../generated/cms/content/v1/ContextService';
import type { ResolvedContext__Output } from '../generated/cms/content/v1/ResolvedContext';
import { SITE_ROOT_PATH, siteRootContext, type ContentContext, type ContextResolver } from '../http/context';
import { callUnary, createClient } from './client';
import { protos } from './loader';

/**
 * Context paths resolved by the content service, for services whose endpoints take any content as context.
 * The site root is answered without a call (see siteRootContext).
 */
export function remoteContentContexts(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
): ContextResolver<ContentContext> & { close(): void } {
  const client: ContextServiceClient = createClient(protos().contexts.ContextService, address, maxMessageBytes);
  return {
    async resolve(path, requestId, publicUrl) {
      if (path === SITE_ROOT_PATH) return siteRootContext();
      const found = await callUnary<ResolvedContext__Output>(
        (md, o, cb) => client.Resolve({ path, public_url: publicUrl }, md, o, cb),
        {
          requestId,
          timeoutMs,
        },
      );
      return {
        context: { path: found.path, uid: found.uid, portalType: found.portal_type },
        scope: {
          state: found.state ?? null,
          localRoles: found.local_roles.map((g) => ({ principal: g.principal, roles: g.roles })),
        },
      };
    },
    close: () => client.close(),
  };
}

/** For services whose endpoints are all at the site root: the dispatcher refuses any other context first. */
export function siteRootOnly(): ContextResolver<ContentContext> {
  return {
    async resolve(path) {
      if (path !== SITE_ROOT_PATH) throw notFound('Resource not found');
      return siteRootContext();
    },
  };
}
