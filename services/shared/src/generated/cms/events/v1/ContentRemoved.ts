// Original file: proto/cms/events/v1/content_events.proto


export interface ContentRemoved {
  'uid'?: (string);
  'version'?: (number);
  'path'?: (string);
  'removed_uids'?: (string)[];
}

export interface ContentRemoved__Output {
  'uid': (string);
  'version': (number);
  'path': (string);
  'removed_uids': (string)[];
}
