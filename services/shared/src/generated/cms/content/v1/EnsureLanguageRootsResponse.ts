// Original file: proto/cms/content/v1/content.proto


export interface EnsureLanguageRootsResponse {
  'paths'?: (string)[];
}

export interface EnsureLanguageRootsResponse__Output {
  'paths': (string)[];
}
