/**
 * The permission model every service enforces: permissions are granted to
 * roles; a caller holds the roles of their account and groups (`Principal.roles`),
 * plus `Anonymous` for everyone and `Authenticated` once logged in.
 *
 * This is the site-wide layer; local roles and workflow-state permissions on
 * content build on it.
 */
import { forbidden, unauthorized } from '../errors/app-error';
import type { Principal__Output } from '../generated/cms/common/v1/Principal';

export const ROLES = [
  'Manager',
  'Site Administrator',
  'Editor',
  'Contributor',
  'Reviewer',
  'Reader',
  'Member',
  'Owner',
  'Authenticated',
  'Anonymous',
] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | 'View'
  | 'Access contents information'
  | 'Modify portal content'
  | 'Add portal content'
  | 'Delete objects'
  | 'Review portal content'
  | 'Request review'
  | 'cms.ManagePortal'
  | 'Manage users'
  | 'cms.schemaeditor.ManageSchemata'
  | 'Reply to item'
  | 'Moderate Discussion'
  | 'Change local roles';

/** Site-wide grants, as on a new site of the reference platform. */
export const SITE_PERMISSIONS: Readonly<Record<Permission, readonly Role[]>> = {
  View: ['Manager', 'Site Administrator', 'Editor', 'Contributor', 'Reviewer', 'Reader', 'Owner', 'Anonymous'],
  'Access contents information': [
    'Manager',
    'Site Administrator',
    'Editor',
    'Contributor',
    'Reviewer',
    'Reader',
    'Owner',
    'Anonymous',
  ],
  'Modify portal content': ['Manager', 'Site Administrator', 'Editor', 'Owner'],
  'Add portal content': ['Manager', 'Site Administrator', 'Contributor', 'Owner'],
  'Delete objects': ['Manager', 'Site Administrator', 'Editor', 'Owner'],
  'Review portal content': ['Manager', 'Site Administrator', 'Reviewer'],
  'Request review': ['Manager', 'Site Administrator', 'Contributor', 'Editor', 'Owner'],
  'cms.ManagePortal': ['Manager', 'Site Administrator'],
  'Manage users': ['Manager', 'Site Administrator'],
  'cms.schemaeditor.ManageSchemata': ['Manager', 'Site Administrator'],
  'Reply to item': [
    'Manager',
    'Site Administrator',
    'Editor',
    'Contributor',
    'Reviewer',
    'Reader',
    'Member',
    'Owner',
    'Authenticated',
  ],
  'Moderate Discussion': ['Manager', 'Site Administrator', 'Reviewer'],
  // The sharing form: who may grant local roles here.
  'Change local roles': ['Manager', 'Site Administrator', 'Owner', 'Editor'],
};

/** Every role the caller holds here; `extra` adds roles granted locally (e.g. `Owner`). */
export function effectiveRoles(principal: Principal__Output | null, extra: readonly string[] = []): Set<string> {
  const roles = new Set<string>(['Anonymous', ...extra]);
  if (principal) {
    roles.add('Authenticated');
    for (const role of principal.roles) roles.add(role);
  }
  return roles;
}

export function hasPermission(
  principal: Principal__Output | null,
  permission: Permission,
  grants: Readonly<Record<Permission, readonly Role[]>> = SITE_PERMISSIONS,
  extraRoles: readonly string[] = [],
): boolean {
  const roles = effectiveRoles(principal, extraRoles);
  return grants[permission].some((role) => roles.has(role));
}

export const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="CMS"' };

/** 401 with a challenge for anonymous callers (logging in may help), 403 for the others. */
export function requirePermission(
  principal: Principal__Output | null,
  permission: Permission,
  grants?: Readonly<Record<Permission, readonly Role[]>>,
  extraRoles?: readonly string[],
): void {
  if (hasPermission(principal, permission, grants, extraRoles)) return;
  if (!principal) throw unauthorized(`Authentication required for "${permission}"`, BASIC_CHALLENGE);
  throw forbidden(`You do not have the permission "${permission}" here`);
}
