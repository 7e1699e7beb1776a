// Original file: proto/cms/identity/v1/identity.proto


export interface Invalidation {
  'token_id'?: (string);
  'user_id'?: (string);
  'all'?: (boolean);
  'target'?: "token_id"|"user_id"|"all";
}

export interface Invalidation__Output {
  'token_id'?: (string);
  'user_id'?: (string);
  'all'?: (boolean);
  'target'?: "token_id"|"user_id"|"all";
}
