// Original file: proto/cms/content/v1/content.proto


export interface RebuildTranslationsRequest {
  'from_scratch'?: (boolean);
}

export interface RebuildTranslationsRequest__Output {
  'from_scratch': (boolean);
}
