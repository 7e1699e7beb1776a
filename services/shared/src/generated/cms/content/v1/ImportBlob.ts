// Original file: proto/cms/content/v1/content.proto


export interface ImportBlob {
  'field'?: (string);
  'data'?: (Buffer | Uint8Array | string);
}

export interface ImportBlob__Output {
  'field': (string);
  'data': (Buffer);
}
