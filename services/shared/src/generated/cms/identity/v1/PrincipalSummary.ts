// Original file: proto/cms/identity/v1/identity.proto


export interface PrincipalSummary {
  'id'?: (string);
  'title'?: (string);
  'type'?: (string);
  'roles'?: (string)[];
  'has_portrait'?: (boolean);
  '_has_portrait'?: "has_portrait";
}

export interface PrincipalSummary__Output {
  'id': (string);
  'title': (string);
  'type': (string);
  'roles': (string)[];
  'has_portrait'?: (boolean);
  '_has_portrait'?: "has_portrait";
}
