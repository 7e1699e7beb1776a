// Original file: proto/cms/content/v1/content.proto


export interface RenderedObject {
  'uid'?: (string);
  'json'?: (Buffer | Uint8Array | string);
}

export interface RenderedObject__Output {
  'uid': (string);
  'json': (Buffer);
}
