/**
 * Local roles: roles granted to a user or group on one content object,
 * inherited by everything below it unless an object blocks inheritance.
 * Together with the global roles and the workflow state they decide what a
 * caller may do with an object, and who may see it in listings and searches.
 */
import type { Principal__Output } from '../generated/cms/common/v1/Principal';
import { forbidden, unauthorized } from '../errors/app-error';
import { BASIC_CHALLENGE, SITE_PERMISSIONS, type Permission, type Role } from './model';
import { workflowState } from './workflow';

/**
 * Roles granted to principals on one object. A list rather than a map keyed
 * by principal id, because ids may contain dots (e-mail logins), which stored
 * field names cannot.
 */
export type LocalRoles = LocalRoleGrant[];

export interface LocalRoleGrant {
  principal: string;
  roles: string[];
}

export function rolesOf(grants: LocalRoles, principal: string): string[] {
  return grants.find((g) => g.principal === principal)?.roles ?? [];
}

/** Every logged-in user is in this virtual group. */
export const AUTHENTICATED_GROUP = 'AuthenticatedUsers';

/** The roles a sharing form may grant, with the titles clients show. */
export const DELEGABLE_ROLES = [
  { id: 'Contributor', title: 'Can add' },
  { id: 'Editor', title: 'Can edit' },
  { id: 'Reader', title: 'Can view' },
  { id: 'Reviewer', title: 'Can review' },
] as const;

/** What an object holds of its own and its inherited local roles. */
export function effectiveLocalRoles(own: LocalRoles, inherited: LocalRoles, blocked: boolean): LocalRoles {
  const merged = new Map<string, Set<string>>();
  for (const source of blocked ? [own] : [inherited, own]) {
    for (const { principal, roles } of source) {
      const set = merged.get(principal) ?? new Set<string>();
      for (const role of roles) set.add(role);
      merged.set(principal, set);
    }
  }
  return [...merged].map(([principal, roles]) => ({ principal, roles: [...roles] }));
}

/** The ids a principal answers to: its own and its groups', including the virtual group of logged-in users. */
export function principalIds(principal: Principal__Output | null): string[] {
  if (!principal) return [];
  return [principal.id, ...principal.groups, AUTHENTICATED_GROUP];
}

/** Global roles, plus `Authenticated`, plus the local roles the principal or its groups hold here. */
export function rolesHere(principal: Principal__Output | null, localRoles: LocalRoles = []): Set<string> {
  const roles = new Set<string>(['Anonymous']);
  if (!principal) return roles;
  roles.add('Authenticated');
  for (const role of principal.roles) roles.add(role);
  const ids = new Set(principalIds(principal));
  for (const grant of localRoles) if (ids.has(grant.principal)) for (const role of grant.roles) roles.add(role);
  return roles;
}

/** Which roles have a permission on an object in this workflow state (null: no workflow). */
export function rolesWith(permission: Permission, reviewState: string | null): readonly Role[] {
  const managed = reviewState ? workflowState(reviewState).permissions[permission] : undefined;
  return managed ?? SITE_PERMISSIONS[permission];
}

/**
 * Where a permission is checked: an object's governing workflow state (null: none) and the local roles in
 * force there (its own and inherited). No scope is the site itself, where only global roles count.
 */
export interface AccessScope {
  state: string | null;
  localRoles: LocalRoles;
}

/** Whether the caller has the permission here (in `scope`, or site-wide). */
export function hasPermission(
  principal: Principal__Output | null,
  permission: Permission,
  scope?: AccessScope,
): boolean {
  const roles = rolesHere(principal, scope?.localRoles ?? []);
  return rolesWith(permission, scope?.state ?? null).some((role) => roles.has(role));
}

/**
 * Who may view an object, as tokens a listing or search filters on: the
 * roles that have View, and `user:<id>` for each principal holding such a
 * role locally (the reference platform's allowedRolesAndUsers).
 */
export function viewTokens(reviewState: string | null, localRoles: LocalRoles): string[] {
  const viewRoles = rolesWith('View', reviewState);
  const tokens = new Set<string>(viewRoles);
  for (const { principal, roles } of localRoles) {
    if (roles.some((role) => viewRoles.includes(role as Role))) tokens.add(`user:${principal}`);
  }
  return [...tokens];
}

/** The tokens a caller matches in `viewTokens`. */
export function callerTokens(principal: Principal__Output | null): string[] {
  const tokens = ['Anonymous'];
  if (!principal) return tokens;
  tokens.push('Authenticated', ...principal.roles, ...principalIds(principal).map((id) => `user:${id}`));
  return tokens;
}

/** Raises 401 with a challenge for anonymous callers (logging in may help), 403 for the others, unless allowed. */
export function requirePermission(
  principal: Principal__Output | null,
  permission: Permission,
  scope?: AccessScope,
): void {
  if (hasPermission(principal, permission, scope)) return;
  if (!principal) throw unauthorized(`Authentication required for "${permission}"`, BASIC_CHALLENGE);
  throw forbidden(`You do not have the permission "${permission}" here`);
}
