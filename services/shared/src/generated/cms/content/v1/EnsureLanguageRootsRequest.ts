// Original file: proto/cms/content/v1/content.proto


export interface EnsureLanguageRootsRequest {
  'languages'?: (string)[];
}

export interface EnsureLanguageRootsRequest__Output {
  'languages': (string)[];
}
