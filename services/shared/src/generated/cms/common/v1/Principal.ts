// Original file: proto/cms/common/v1/http.proto


export interface Principal {
  'id'?: (string);
  'roles'?: (string)[];
  'groups'?: (string)[];
  'fullname'?: (string);
}

export interface Principal__Output {
  'id': (string);
  'roles': (string)[];
  'groups': (string)[];
  'fullname': (string);
}
