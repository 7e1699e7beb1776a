// Original file: proto/cms/content/v1/content.proto


export interface CountByTypeRequest {
  'types'?: (string)[];
}

export interface CountByTypeRequest__Output {
  'types': (string)[];
}
