// Original file: proto/cms/content/v1/content.proto


export interface ScanRequest {
  'page_size'?: (number);
}

export interface ScanRequest__Output {
  'page_size': (number);
}
