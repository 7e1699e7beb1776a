// Original file: proto/cms/identity/v1/identity.proto


export interface SearchPrincipalsRequest {
  'text'?: (string);
  'limit'?: (number);
}

export interface SearchPrincipalsRequest__Output {
  'text': (string);
  'limit': (number);
}
