// Original file: proto/cms/identity/v1/identity.proto


export interface GetPrincipalRequest {
  'id'?: (string);
}

export interface GetPrincipalRequest__Output {
  'id': (string);
}
