// Original file: proto/cms/events/v1/comment_events.proto


export interface CommentRemoved {
  'content_uid'?: (string);
  'comment_id'?: (string);
  'version'?: (number);
  'removed_ids'?: (string)[];
}

export interface CommentRemoved__Output {
  'content_uid': (string);
  'comment_id': (string);
  'version': (number);
  'removed_ids': (string)[];
}
