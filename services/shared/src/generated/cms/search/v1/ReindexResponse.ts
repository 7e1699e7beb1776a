// Original file: proto/cms/search/v1/search.proto


export interface ReindexResponse {
  'indexed'?: (number);
  'removed'?: (number);
}

export interface ReindexResponse__Output {
  'indexed': (number);
  'removed': (number);
}
