import { effectiveLocalRoles, viewTokens, type AccessScope } from '@cms/shared';
import type { ContentDoc } from './model';

type Governed = Pick<ContentDoc, 'review_state' | 'acquired_state' | 'effective_local_roles'>;

/**
 * The workflow state whose permissions apply to an object. An object without
 * a workflow (File, Image) takes its container's, as it acquires them in the
 * reference platform: a file in a private folder is as private as the folder.
 */
export function governingState(doc: Pick<ContentDoc, 'review_state' | 'acquired_state'>): string | null {
  return doc.review_state ?? doc.acquired_state ?? null;
}

/** Where permissions on this object are checked: its governing state and the local roles in force on it. */
export function accessOf(doc: Governed): AccessScope {
  return { state: governingState(doc), localRoles: doc.effective_local_roles ?? [] };
}

/**
 * The derived access fields of an object: its effective local roles (own ones
 * plus its parent's), the state it acquires when it has no workflow, and who
 * may view it. `parent` is null for the site root.
 */
export function accessFields(
  doc: Pick<ContentDoc, 'local_roles' | 'block_local_roles' | 'review_state'>,
  parent: Governed | null,
): Pick<ContentDoc, 'effective_local_roles' | 'acquired_state' | 'allowed'> {
  const effective = effectiveLocalRoles(
    doc.local_roles ?? [],
    parent?.effective_local_roles ?? [],
    doc.block_local_roles ?? false,
  );
  const acquired = doc.review_state === null && parent ? governingState(parent) : null;
  return {
    effective_local_roles: effective,
    acquired_state: acquired,
    allowed: viewTokens(doc.review_state ?? acquired, effective),
  };
}
