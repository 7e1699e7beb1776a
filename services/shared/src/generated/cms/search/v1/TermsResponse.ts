// Original file: proto/cms/search/v1/search.proto

import type { Term as _cms_search_v1_Term, Term__Output as _cms_search_v1_Term__Output } from '../../../cms/search/v1/Term';

export interface TermsResponse {
  'items'?: (_cms_search_v1_Term)[];
}

export interface TermsResponse__Output {
  'items': (_cms_search_v1_Term__Output)[];
}
