// Original file: proto/cms/identity/v1/identity.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface ExportPrincipalsRequest {
  'principal'?: (_cms_common_v1_Principal | null);
}

export interface ExportPrincipalsRequest__Output {
  'principal': (_cms_common_v1_Principal__Output | null);
}
