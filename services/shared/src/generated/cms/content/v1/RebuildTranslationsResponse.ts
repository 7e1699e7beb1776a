// Original file: proto/cms/content/v1/content.proto


export interface RebuildTranslationsResponse {
  'linked'?: (number);
}

export interface RebuildTranslationsResponse__Output {
  'linked': (number);
}
