// Original file: proto/cms/identity/v1/identity.proto

import type { ExportedGroup as _cms_identity_v1_ExportedGroup, ExportedGroup__Output as _cms_identity_v1_ExportedGroup__Output } from '../../../cms/identity/v1/ExportedGroup';
import type { ExportedUser as _cms_identity_v1_ExportedUser, ExportedUser__Output as _cms_identity_v1_ExportedUser__Output } from '../../../cms/identity/v1/ExportedUser';

export interface ExportedPrincipal {
  'group'?: (_cms_identity_v1_ExportedGroup | null);
  'user'?: (_cms_identity_v1_ExportedUser | null);
  'kind'?: "group"|"user";
}

export interface ExportedPrincipal__Output {
  'group'?: (_cms_identity_v1_ExportedGroup__Output | null);
  'user'?: (_cms_identity_v1_ExportedUser__Output | null);
  'kind'?: "group"|"user";
}
