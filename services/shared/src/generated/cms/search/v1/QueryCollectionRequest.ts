// Original file: proto/cms/search/v1/search.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface QueryCollectionRequest {
  'query_json'?: (string);
  'context_path'?: (string);
  'sort_on'?: (string);
  'sort_reversed'?: (boolean);
  'limit'?: (number);
  'b_start'?: (number);
  'b_size'?: (number);
  'principal'?: (_cms_common_v1_Principal | null);
  'request_id'?: (string);
}

export interface QueryCollectionRequest__Output {
  'query_json': (string);
  'context_path': (string);
  'sort_on': (string);
  'sort_reversed': (boolean);
  'limit': (number);
  'b_start': (number);
  'b_size': (number);
  'principal': (_cms_common_v1_Principal__Output | null);
  'request_id': (string);
}
