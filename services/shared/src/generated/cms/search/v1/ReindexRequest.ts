// Original file: proto/cms/search/v1/search.proto


export interface ReindexRequest {
  'from_scratch'?: (boolean);
}

export interface ReindexRequest__Output {
  'from_scratch': (boolean);
}
