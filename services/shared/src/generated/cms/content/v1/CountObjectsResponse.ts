// Original file: proto/cms/content/v1/content.proto


export interface CountObjectsResponse {
  'count'?: (number);
}

export interface CountObjectsResponse__Output {
  'count': (number);
}
