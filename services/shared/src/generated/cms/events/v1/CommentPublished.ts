// Original file: proto/cms/events/v1/comment_events.proto


export interface CommentPublished {
  'content_uid'?: (string);
  'comment_id'?: (string);
  'version'?: (number);
}

export interface CommentPublished__Output {
  'content_uid': (string);
  'comment_id': (string);
  'version': (number);
}
