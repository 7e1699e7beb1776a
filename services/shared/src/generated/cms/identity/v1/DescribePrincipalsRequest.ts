// Original file: proto/cms/identity/v1/identity.proto


export interface DescribePrincipalsRequest {
  'ids'?: (string)[];
  'with_email'?: (boolean);
  '_with_email'?: "with_email";
}

export interface DescribePrincipalsRequest__Output {
  'ids': (string)[];
  'with_email'?: (boolean);
  '_with_email'?: "with_email";
}
