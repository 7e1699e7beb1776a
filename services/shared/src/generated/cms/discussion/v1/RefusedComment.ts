// Original file: proto/cms/discussion/v1/discussion.proto


export interface RefusedComment {
  'comment_id'?: (string);
  'reason'?: (string);
}

export interface RefusedComment__Output {
  'comment_id': (string);
  'reason': (string);
}
