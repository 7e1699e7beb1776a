/**
 * The proof that a permission was checked: the dispatcher checks each operation's declared permission once, on
 * the context, and hands the handler one `Granted` per permission it checked. The write path and the domain take
 * the proof instead of checking the same permission again (issue 28). Only `grant` makes one: a look-alike
 * object is not a proof (`covers` asks the registry, not the shape).
 */
import type { Principal__Output } from '../generated/cms/common/v1/Principal';
import { forbidden, unauthorized } from '../errors/app-error';
import { hasPermission, type AccessScope } from './local-roles';
import { SITE_PERMISSIONS, type Permission } from './model';

declare const GRANTED: unique symbol;

export interface Granted<P extends Permission = Permission> {
  readonly permission: P;
  /** Site-relative path of the context it was checked on (`/` for the site root). */
  readonly contextPath: string;
  readonly principalId: string | null;
  readonly [GRANTED]: true;
}

const issued = new WeakSet<object>();

/** The proof that `principal` holds `permission` on the context at `contextPath`: for the dispatcher, after its check. */
export function grant(permission: Permission, contextPath: string, principalId: string | null): Granted {
  const proof = Object.freeze({ permission, contextPath, principalId }) as Granted;
  issued.add(proof);
  return proof;
}

/**
 * The dispatcher's proof as a proof of `permission`, for a command that takes only that one: an internal
 * error (a declaration and its handler out of step, not the caller's fault) when it is not.
 */
export function proofOf<P extends Permission>(proof: Granted | undefined, permission: P): Granted<P> {
  if (!proof || !issued.has(proof) || proof.permission !== permission) {
    throw new Error(`the dispatcher did not prove "${permission}" for this call (got ${proof?.permission ?? 'none'})`);
  }
  return proof as Granted<P>;
}

/** Whether one of `proofs` is the dispatcher's proof of `permission` on the object at `path`. */
export function covers(proofs: readonly Granted[] | undefined, permission: Permission, path: string): boolean {
  return !!proofs?.some((p) => issued.has(p) && p.permission === permission && p.contextPath === path);
}

/**
 * The check of an RPC that acts for a principal (site export and import, across services): UNAUTHENTICATED
 * without a principal, PERMISSION_DENIED naming the roles that have the permission site-wide.
 */
export function requireCallerPermission(
  principal: Principal__Output | null | undefined,
  permission: Permission,
  what: string,
  scope?: AccessScope,
): Principal__Output {
  if (!principal) throw unauthorized(`${what} needs a principal with the permission "${permission}"`);
  if (!hasPermission(principal, permission, scope)) {
    throw forbidden(`${what} needs the ${SITE_PERMISSIONS[permission].join(' or ')} role`);
  }
  return principal;
}
