// Original file: proto/cms/content/v1/content.proto


export interface NotCarried {
  'what'?: (string);
  'reason'?: (string);
}

export interface NotCarried__Output {
  'what': (string);
  'reason': (string);
}
