// Original file: proto/cms/config/v1/config.proto


export interface Choice {
  'token'?: (string);
  'title'?: (string);
}

export interface Choice__Output {
  'token': (string);
  'title': (string);
}
