// Original file: proto/cms/search/v1/search.proto

import type { CollectionItem as _cms_search_v1_CollectionItem, CollectionItem__Output as _cms_search_v1_CollectionItem__Output } from '../../../cms/search/v1/CollectionItem';

export interface QueryCollectionResponse {
  'items'?: (_cms_search_v1_CollectionItem)[];
  'items_total'?: (number);
}

export interface QueryCollectionResponse__Output {
  'items': (_cms_search_v1_CollectionItem__Output)[];
  'items_total': (number);
}
