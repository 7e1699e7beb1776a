// Original file: proto/cms/discussion/v1/discussion.proto


export interface CommentRecord {
  'content_uid'?: (string);
  'comment_id'?: (string);
  'version'?: (number);
  'in_reply_to'?: (string);
  'text'?: (string);
  'mime_type'?: (string);
  'author_username'?: (string);
  'author_name'?: (string);
  'review_state'?: (string);
  'created'?: (string);
  'modified'?: (string);
  'user_notification'?: (boolean);
}

export interface CommentRecord__Output {
  'content_uid': (string);
  'comment_id': (string);
  'version': (number);
  'in_reply_to': (string);
  'text': (string);
  'mime_type': (string);
  'author_username': (string);
  'author_name': (string);
  'review_state': (string);
  'created': (string);
  'modified': (string);
  'user_notification': (boolean);
}
