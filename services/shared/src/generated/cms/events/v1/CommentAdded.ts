// Original file: proto/cms/events/v1/comment_events.proto


export interface CommentAdded {
  'content_uid'?: (string);
  'comment_id'?: (string);
  'version'?: (number);
  'in_reply_to'?: (string);
  'author_username'?: (string);
  'review_state'?: (string);
  'created'?: (string);
}

export interface CommentAdded__Output {
  'content_uid': (string);
  'comment_id': (string);
  'version': (number);
  'in_reply_to': (string);
  'author_username': (string);
  'review_state': (string);
  'created': (string);
}
