// Original file: proto/cms/content/v1/content.proto


export interface ContentReplica {
  'epoch'?: (string);
  'address'?: (string);
}

export interface ContentReplica__Output {
  'epoch': (string);
  'address': (string);
}
