// Original file: proto/cms/identity/v1/identity.proto


export interface WatchInvalidationsRequest {
}

export interface WatchInvalidationsRequest__Output {
}
