// Original file: proto/cms/common/v1/http.proto


export interface HttpResponse {
  'status'?: (number);
  'headers'?: ({[key: string]: string});
  'body'?: (Buffer | Uint8Array | string);
}

export interface HttpResponse__Output {
  'status': (number);
  'headers': ({[key: string]: string});
  'body': (Buffer);
}
