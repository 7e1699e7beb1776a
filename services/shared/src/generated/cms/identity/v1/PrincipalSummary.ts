// Original file: proto/cms/identity/v1/identity.proto


export interface PrincipalSummary {
  'id'?: (string);
  'title'?: (string);
  'type'?: (string);
  'roles'?: (string)[];
  'has_portrait'?: (boolean);
  'email'?: (string);
  '_has_portrait'?: "has_portrait";
  '_email'?: "email";
}

export interface PrincipalSummary__Output {
  'id': (string);
  'title': (string);
  'type': (string);
  'roles': (string)[];
  'has_portrait'?: (boolean);
  'email'?: (string);
  '_has_portrait'?: "has_portrait";
  '_email'?: "email";
}
