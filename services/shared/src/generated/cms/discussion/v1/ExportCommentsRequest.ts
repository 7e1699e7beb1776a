// Original file: proto/cms/discussion/v1/discussion.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface ExportCommentsRequest {
  'principal'?: (_cms_common_v1_Principal | null);
}

export interface ExportCommentsRequest__Output {
  'principal': (_cms_common_v1_Principal__Output | null);
}
