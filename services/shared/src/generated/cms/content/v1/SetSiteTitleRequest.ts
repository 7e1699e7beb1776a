// Original file: proto/cms/content/v1/content.proto


export interface SetSiteTitleRequest {
  'title'?: (string);
}

export interface SetSiteTitleRequest__Output {
  'title': (string);
}
