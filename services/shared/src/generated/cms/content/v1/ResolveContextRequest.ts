// Original file: proto/cms/content/v1/context.proto


export interface ResolveContextRequest {
  'path'?: (string);
  'public_url'?: (string);
}

export interface ResolveContextRequest__Output {
  'path': (string);
  'public_url': (string);
}
