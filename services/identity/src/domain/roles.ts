import { badRequest, ROLES, type FieldError } from '@cms/shared';

/**
 * Roles that can be given to users and groups globally: every role of the
 * permission model except the automatic ones (`Anonymous`, `Authenticated`)
 * and `Owner`, which only exists locally.
 */
export const ASSIGNABLE_ROLES: readonly string[] = ROLES.filter(
  (role) => role !== 'Anonymous' && role !== 'Authenticated' && role !== 'Owner',
);

/** `@roles` lists the assignable roles in this order (as the reference platform does). */
export const ROLE_LISTING: readonly string[] = [
  'Contributor',
  'Editor',
  'Member',
  'Reader',
  'Reviewer',
  'Site Administrator',
  'Manager',
];

/** Roles that are never shown as a principal's own: every caller holds them implicitly. */
const PSEUDO_ROLES = new Set(['Anonymous', 'Authenticated']);

export function isAssignableRole(role: string): boolean {
  return ASSIGNABLE_ROLES.includes(role);
}

/** 400 naming every unknown role; `field` is the body member they came in. */
export function checkAssignable(roles: Iterable<string>, field: string, allow: readonly string[] = []): void {
  const errors: FieldError[] = [];
  for (const role of roles) {
    if (!isAssignableRole(role) && !allow.includes(role)) {
      errors.push({ field: `${field}.${role}`, message: `unknown role; known roles: ${ASSIGNABLE_ROLES.join(', ')}` });
    }
  }
  if (errors.length) throw badRequest(`Unknown role: ${errors.map((e) => e.field).join(', ')}`, errors);
}

/** Global roles as shown on a principal: without the pseudo roles, each once, sorted. */
export function displayRoles(roles: Iterable<string>): string[] {
  return [...new Set([...roles].filter((role) => !PSEUDO_ROLES.has(role)))].sort();
}
