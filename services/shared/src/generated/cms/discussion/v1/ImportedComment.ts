// Original file: proto/cms/discussion/v1/discussion.proto


export interface ImportedComment {
  'comment_id'?: (string);
  'in_reply_to'?: (string);
  'text'?: (string);
  'mime_type'?: (string);
  'author_username'?: (string);
  'author_name'?: (string);
  'author_email'?: (string);
  'user_notification'?: (boolean);
  'review_state'?: (string);
  'created'?: (string);
  'modified'?: (string);
}

export interface ImportedComment__Output {
  'comment_id': (string);
  'in_reply_to': (string);
  'text': (string);
  'mime_type': (string);
  'author_username': (string);
  'author_name': (string);
  'author_email': (string);
  'user_notification': (boolean);
  'review_state': (string);
  'created': (string);
  'modified': (string);
}
