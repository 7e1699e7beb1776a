/**
 * Events of the identity area (documented in proto/EVENTS.md). Only removals
 * are published: a consumer that keeps principal ids (content's local roles)
 * drops what it holds for the removed id. Applying one twice is harmless.
 */

export interface IdentityUserRemoved {
  user_id: string;
}

export interface IdentityGroupRemoved {
  group_id: string;
}

export interface IdentityEventPayloads {
  'identity.user.removed': IdentityUserRemoved;
  'identity.group.removed': IdentityGroupRemoved;
}

export type IdentityEventType = keyof IdentityEventPayloads;
