// Original file: proto/cms/discussion/v1/discussion.proto


export interface ScanCommentsRequest {
  'page_size'?: (number);
}

export interface ScanCommentsRequest__Output {
  'page_size': (number);
}
