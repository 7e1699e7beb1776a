// Original file: proto/cms/discussion/v1/discussion.proto


export interface GetCommentRequest {
  'content_uid'?: (string);
  'comment_id'?: (string);
}

export interface GetCommentRequest__Output {
  'content_uid': (string);
  'comment_id': (string);
}
