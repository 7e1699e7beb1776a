// Original file: proto/cms/content/v1/content.proto


export interface ScanRequest {
  'page_size'?: (number);
  'after_uid'?: (string);
}

export interface ScanRequest__Output {
  'page_size': (number);
  'after_uid': (string);
}
