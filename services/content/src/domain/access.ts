import {
  effectiveLocalRoles,
  requireHere,
  viewTokens,
  type LocalRoles,
  type Permission,
  type Principal__Output,
} from '@cms/shared';
import type { ContentDoc } from './model';

/** Raises 401/403 unless the caller has the permission on this object. */
export function authorize(principal: Principal__Output | null, permission: Permission, doc: ContentDoc): void {
  requireHere(principal, permission, doc.review_state, doc.effective_local_roles ?? []);
}

/** The derived access fields of an object, from its own local roles and its parent's effective ones. */
export function accessFields(
  doc: Pick<ContentDoc, 'local_roles' | 'block_local_roles' | 'review_state'>,
  parentEffective: LocalRoles,
): Pick<ContentDoc, 'effective_local_roles' | 'allowed'> {
  const effective = effectiveLocalRoles(doc.local_roles ?? [], parentEffective, doc.block_local_roles ?? false);
  return { effective_local_roles: effective, allowed: viewTokens(doc.review_state, effective) };
}
