// Original file: proto/cms/content/v1/content.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface RenderManyRequest {
  'uids'?: (string)[];
  'principal'?: (_cms_common_v1_Principal | null);
  'public_url'?: (string);
}

export interface RenderManyRequest__Output {
  'uids': (string)[];
  'principal': (_cms_common_v1_Principal__Output | null);
  'public_url': (string);
}
