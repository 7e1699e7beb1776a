// Original file: proto/cms/events/v1/comment_events.proto


export interface CommentModified {
  'content_uid'?: (string);
  'comment_id'?: (string);
  'version'?: (number);
  'modified'?: (string);
}

export interface CommentModified__Output {
  'content_uid': (string);
  'comment_id': (string);
  'version': (number);
  'modified': (string);
}
