// Original file: proto/cms/identity/v1/identity.proto


export interface DescribePrincipalsRequest {
  'ids'?: (string)[];
}

export interface DescribePrincipalsRequest__Output {
  'ids': (string)[];
}
