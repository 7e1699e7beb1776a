// Original file: proto/cms/content/v1/content.proto


export interface SetSiteTitleResponse {
}

export interface SetSiteTitleResponse__Output {
}
