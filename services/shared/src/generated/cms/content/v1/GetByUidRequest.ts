// Original file: proto/cms/content/v1/content.proto


export interface GetByUidRequest {
  'uid'?: (string);
}

export interface GetByUidRequest__Output {
  'uid': (string);
}
