// Original file: proto/cms/events/v1/outbox.proto


export interface PublishBacklog {
  'published'?: (boolean);
  'pending'?: (number);
  'oldest_age_ms'?: (number);
  'disconnected'?: (boolean);
}

export interface PublishBacklog__Output {
  'published': (boolean);
  'pending': (number);
  'oldest_age_ms': (number);
  'disconnected': (boolean);
}
