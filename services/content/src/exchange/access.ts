import { forbidden, type Principal__Output } from '@cms/shared';

/** Global roles that may import and export a site (plone.exportimport's views ask for the same). */
const SITE_ADMINISTRATION_ROLES = new Set(['Manager', 'Site Administrator']);

/** 403 unless the principal is a Manager or Site Administrator. */
export function requireSiteAdministrator(
  principal: Principal__Output | null | undefined,
  what: string,
): Principal__Output {
  if (!principal?.roles.some((role) => SITE_ADMINISTRATION_ROLES.has(role)))
    throw forbidden(`${what} needs the Manager or Site Administrator role`);
  return principal;
}
