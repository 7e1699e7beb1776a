// Original file: proto/cms/discussion/v1/discussion.proto


export interface CommentRef {
  'content_path'?: (string);
  'content_uid'?: (string);
  'comment_id'?: (string);
}

export interface CommentRef__Output {
  'content_path': (string);
  'content_uid': (string);
  'comment_id': (string);
}
