// Original file: proto/cms/search/v1/search.proto

import type { ReindexResponse as _cms_search_v1_ReindexResponse, ReindexResponse__Output as _cms_search_v1_ReindexResponse__Output } from '../../../cms/search/v1/ReindexResponse';

export interface ReindexProgress {
  'done'?: (number);
  'total'?: (number);
  'what'?: (string);
  'result'?: (_cms_search_v1_ReindexResponse | null);
}

export interface ReindexProgress__Output {
  'done': (number);
  'total': (number);
  'what': (string);
  'result': (_cms_search_v1_ReindexResponse__Output | null);
}
