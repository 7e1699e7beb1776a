// Original file: proto/cms/events/v1/identity_events.proto


export interface IdentityUserRemoved {
  'user_id'?: (string);
}

export interface IdentityUserRemoved__Output {
  'user_id': (string);
}
