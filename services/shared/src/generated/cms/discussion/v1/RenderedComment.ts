// Original file: proto/cms/discussion/v1/discussion.proto


export interface RenderedComment {
  'comment_id'?: (string);
  'json'?: (Buffer | Uint8Array | string);
}

export interface RenderedComment__Output {
  'comment_id': (string);
  'json': (Buffer);
}
