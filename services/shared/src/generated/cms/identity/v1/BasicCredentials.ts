// Original file: proto/cms/identity/v1/identity.proto


export interface BasicCredentials {
  'login'?: (string);
  'password'?: (string);
}

export interface BasicCredentials__Output {
  'login': (string);
  'password': (string);
}
