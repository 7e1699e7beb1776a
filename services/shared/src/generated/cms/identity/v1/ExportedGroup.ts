// Original file: proto/cms/identity/v1/identity.proto


export interface ExportedGroup {
  'id'?: (string);
  'title'?: (string);
  'description'?: (string);
  'email'?: (string);
  'roles'?: (string)[];
  'groups'?: (string)[];
  'members'?: (string)[];
}

export interface ExportedGroup__Output {
  'id': (string);
  'title': (string);
  'description': (string);
  'email': (string);
  'roles': (string)[];
  'groups': (string)[];
  'members': (string)[];
}
