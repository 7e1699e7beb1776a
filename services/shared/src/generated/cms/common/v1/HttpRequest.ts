// Original file: proto/cms/common/v1/http.proto

import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from '../../../cms/common/v1/QueryParam';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface HttpRequest {
  'method'?: (string);
  'context_path'?: (string)[];
  'endpoint'?: (string);
  'sub_path'?: (string)[];
  'query'?: (_cms_common_v1_QueryParam)[];
  'body'?: (Buffer | Uint8Array | string);
  'principal'?: (_cms_common_v1_Principal | null);
  'public_url'?: (string);
  'request_id'?: (string);
  'headers'?: ({[key: string]: string});
}

export interface HttpRequest__Output {
  'method': (string);
  'context_path': (string)[];
  'endpoint': (string);
  'sub_path': (string)[];
  'query': (_cms_common_v1_QueryParam__Output)[];
  'body': (Buffer);
  'principal': (_cms_common_v1_Principal__Output | null);
  'public_url': (string);
  'request_id': (string);
  'headers': ({[key: string]: string});
}
