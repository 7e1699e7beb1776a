import {
  SITE_ROOT_PATH,
  callUnary,
  createClient,
  protos,
  siteRootContext,
  type AccessScope,
  type ContentContext,
  type ContextResolver,
} from '@cms/shared';

/** A content object as the discussion service sees it: where it is, who may do what there, and its discussion flags. */
export interface DiscussionContext extends ContentContext {
  scope: AccessScope;
  /** The object's own `allow_discussion`; null where it leaves it to its type. */
  allowDiscussion: boolean | null;
  typeAllowsDiscussion: boolean;
}

interface Resolved {
  uid: string;
  path: string;
  portal_type: string;
  state?: string;
  local_roles: { principal: string; roles: string[] }[];
  allow_discussion?: boolean;
  type_allows_discussion: boolean;
}

/**
 * Context paths resolved by content's `ContextService` (one call per request), with what addendum §3 needs to
 * tell whether the object allows discussion. The site root is answered without a call: it allows none.
 */
export function discussionContexts(
  address: () => string,
  timeoutMs: number,
  maxMessageBytes: number,
): ContextResolver<DiscussionContext> & { close(): void } {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().contexts.ContextService, address(), maxMessageBytes);
  return {
    async resolve(path, requestId, publicUrl) {
      if (path === SITE_ROOT_PATH) {
        const root = siteRootContext();
        return {
          context: { ...root.context, scope: root.scope, allowDiscussion: false, typeAllowsDiscussion: false },
          scope: root.scope,
        };
      }
      const contexts = (client ??= connect());
      const found = await callUnary<Resolved>(
        (md, o, cb) => contexts.Resolve({ path, public_url: publicUrl }, md, o, cb),
        { requestId, timeoutMs },
      );
      const scope: AccessScope = {
        state: found.state ?? null,
        localRoles: found.local_roles.map((g) => ({ principal: g.principal, roles: g.roles })),
      };
      return {
        context: {
          path: found.path,
          uid: found.uid,
          portalType: found.portal_type,
          scope,
          allowDiscussion: found.allow_discussion ?? null,
          typeAllowsDiscussion: found.type_allows_discussion,
        },
        scope,
      };
    },
    close: () => client?.close(),
  };
}
