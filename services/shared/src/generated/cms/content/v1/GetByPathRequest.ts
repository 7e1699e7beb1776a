// Original file: proto/cms/content/v1/content.proto


export interface GetByPathRequest {
  'path'?: (string);
}

export interface GetByPathRequest__Output {
  'path': (string);
}
