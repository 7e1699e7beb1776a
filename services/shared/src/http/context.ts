/**
 * The context of a request: the content object (or the site root) its path names. Every endpoint answers 404
 * for a path where nothing is, and checks that the caller may view what is there, before its handler runs.
 * The content service resolves paths from its own store; the others ask it (`ContextService.Resolve`).
 */
import type { AccessScope } from '../permissions/local-roles';

/** What a service's dispatcher resolved a context path to. */
export interface Resolved<Context> {
  context: Context;
  /** Where permissions are checked: the object's governing workflow state and effective local roles. */
  scope: AccessScope;
}

export interface ContextResolver<Context> {
  /**
   * The context at the site-relative path (`/` for the site root); throws NotFound when nothing is there.
   * `publicUrl` is for the URL the 404 names.
   */
  resolve(path: string, requestId: string, publicUrl: string): Promise<Resolved<Context>>;
}

/** A content object as other services see it: enough to address it and to check permissions on it. */
export interface ContentContext {
  /** Site-relative path, `/` for the site root. */
  path: string;
  /** The UID; unknown (null) for the site root, which is not looked up (see siteRootContext). */
  uid: string | null;
  /** The type name; `Site Root` for the site root. */
  portalType: string;
}

export const SITE_ROOT_PATH = '/';

/**
 * The site root as services other than content see it, without asking content: it has no workflow, and
 * permissions there come from global roles. (Local roles granted on the site root itself are not seen by
 * those services' checks; content's own endpoints do see them.)
 */
export function siteRootContext(): Resolved<ContentContext> {
  return {
    context: { path: SITE_ROOT_PATH, uid: null, portalType: 'Site Root' },
    scope: { state: null, localRoles: [] },
  };
}
