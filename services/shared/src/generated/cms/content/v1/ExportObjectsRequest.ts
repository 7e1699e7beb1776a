// Original file: proto/cms/content/v1/content.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface ExportObjectsRequest {
  'principal'?: (_cms_common_v1_Principal | null);
}

export interface ExportObjectsRequest__Output {
  'principal': (_cms_common_v1_Principal__Output | null);
}
