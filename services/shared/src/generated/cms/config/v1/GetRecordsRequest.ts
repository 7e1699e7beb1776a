// Original file: proto/cms/config/v1/config.proto


export interface GetRecordsRequest {
  'names'?: (string)[];
}

export interface GetRecordsRequest__Output {
  'names': (string)[];
}
