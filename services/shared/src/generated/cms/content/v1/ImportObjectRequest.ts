// Original file: proto/cms/content/v1/content.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';
import type { ImportBlob as _cms_content_v1_ImportBlob, ImportBlob__Output as _cms_content_v1_ImportBlob__Output } from '../../../cms/content/v1/ImportBlob';

export interface ImportObjectRequest {
  'principal'?: (_cms_common_v1_Principal | null);
  'item_json'?: (Buffer | Uint8Array | string);
  'local_roles_json'?: (Buffer | Uint8Array | string);
  'blobs'?: (_cms_content_v1_ImportBlob)[];
  'position'?: (number);
}

export interface ImportObjectRequest__Output {
  'principal': (_cms_common_v1_Principal__Output | null);
  'item_json': (Buffer);
  'local_roles_json': (Buffer);
  'blobs': (_cms_content_v1_ImportBlob__Output)[];
  'position': (number);
}
