// Original file: proto/cms/search/v1/search.proto


export interface Term {
  'token'?: (string);
  'title'?: (string);
}

export interface Term__Output {
  'token': (string);
  'title': (string);
}
