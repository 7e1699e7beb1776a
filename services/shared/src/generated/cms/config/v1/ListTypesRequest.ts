// Original file: proto/cms/config/v1/config.proto


export interface ListTypesRequest {
}

export interface ListTypesRequest__Output {
}
