// Original file: proto/cms/events/v1/identity_events.proto


export interface IdentityGroupRemoved {
  'group_id'?: (string);
}

export interface IdentityGroupRemoved__Output {
  'group_id': (string);
}
