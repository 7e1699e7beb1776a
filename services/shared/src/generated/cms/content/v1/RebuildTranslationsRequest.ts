// Original file: proto/cms/content/v1/content.proto


export interface RebuildTranslationsRequest {
}

export interface RebuildTranslationsRequest__Output {
}
