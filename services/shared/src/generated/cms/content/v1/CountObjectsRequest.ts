// Original file: proto/cms/content/v1/content.proto


export interface CountObjectsRequest {
}

export interface CountObjectsRequest__Output {
}
