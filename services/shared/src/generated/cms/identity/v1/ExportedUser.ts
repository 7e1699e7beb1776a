// Original file: proto/cms/identity/v1/identity.proto


export interface ExportedUser {
  'id'?: (string);
  'login'?: (string);
  'fullname'?: (string);
  'email'?: (string);
  'description'?: (string);
  'home_page'?: (string);
  'location'?: (string);
  'roles'?: (string)[];
  'groups'?: (string)[];
}

export interface ExportedUser__Output {
  'id': (string);
  'login': (string);
  'fullname': (string);
  'email': (string);
  'description': (string);
  'home_page': (string);
  'location': (string);
  'roles': (string)[];
  'groups': (string)[];
}
