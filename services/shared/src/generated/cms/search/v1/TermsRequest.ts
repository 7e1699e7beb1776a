// Original file: proto/cms/search/v1/search.proto


export interface TermsRequest {
  'vocabulary'?: (string);
  'text'?: (string);
  'viewer_tokens'?: (string)[];
  'portal_types'?: (string)[];
  'limit'?: (number);
}

export interface TermsRequest__Output {
  'vocabulary': (string);
  'text': (string);
  'viewer_tokens': (string)[];
  'portal_types': (string)[];
  'limit': (number);
}
