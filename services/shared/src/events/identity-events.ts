/**
 * Events of the identity area, as defined in proto/cms/events/v1/identity_events.proto
 * (indexed in proto/EVENTS.md). Only removals are published: a consumer that
 * keeps principal ids (content's local roles) drops what it holds for the
 * removed id. Applying one twice is harmless.
 */
import type { IdentityGroupRemoved__Output } from '../generated/cms/events/v1/IdentityGroupRemoved';
import type { IdentityUserRemoved__Output } from '../generated/cms/events/v1/IdentityUserRemoved';

export type IdentityUserRemoved = IdentityUserRemoved__Output;
export type IdentityGroupRemoved = IdentityGroupRemoved__Output;

export interface IdentityEventPayloads {
  'identity.user.removed': IdentityUserRemoved;
  'identity.group.removed': IdentityGroupRemoved;
}

export type IdentityEventType = keyof IdentityEventPayloads;
