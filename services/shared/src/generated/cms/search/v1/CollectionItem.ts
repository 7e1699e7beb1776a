// Original file: proto/cms/search/v1/search.proto


export interface CollectionItem {
  'path'?: (string);
  'portal_type'?: (string);
  'title'?: (string);
  'description'?: (string);
  'review_state'?: (string);
  'type_title'?: (string);
  '_review_state'?: "review_state";
}

export interface CollectionItem__Output {
  'path': (string);
  'portal_type': (string);
  'title': (string);
  'description': (string);
  'review_state'?: (string);
  'type_title': (string);
  '_review_state'?: "review_state";
}
