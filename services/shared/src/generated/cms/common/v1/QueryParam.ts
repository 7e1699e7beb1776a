// Original file: proto/cms/common/v1/http.proto


export interface QueryParam {
  'key'?: (string);
  'value'?: (string);
}

export interface QueryParam__Output {
  'key': (string);
  'value': (string);
}
