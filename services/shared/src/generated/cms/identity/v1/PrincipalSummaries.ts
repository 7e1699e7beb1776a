// Original file: proto/cms/identity/v1/identity.proto

import type { PrincipalSummary as _cms_identity_v1_PrincipalSummary, PrincipalSummary__Output as _cms_identity_v1_PrincipalSummary__Output } from '../../../cms/identity/v1/PrincipalSummary';

export interface PrincipalSummaries {
  'items'?: (_cms_identity_v1_PrincipalSummary)[];
}

export interface PrincipalSummaries__Output {
  'items': (_cms_identity_v1_PrincipalSummary__Output)[];
}
