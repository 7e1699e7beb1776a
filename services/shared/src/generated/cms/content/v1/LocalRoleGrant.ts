// Original file: proto/cms/content/v1/context.proto


export interface LocalRoleGrant {
  'principal'?: (string);
  'roles'?: (string)[];
}

export interface LocalRoleGrant__Output {
  'principal': (string);
  'roles': (string)[];
}
