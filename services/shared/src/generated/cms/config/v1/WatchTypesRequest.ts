// Original file: proto/cms/config/v1/config.proto


export interface WatchTypesRequest {
}

export interface WatchTypesRequest__Output {
}
