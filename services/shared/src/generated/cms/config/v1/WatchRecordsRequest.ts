// Original file: proto/cms/config/v1/config.proto


export interface WatchRecordsRequest {
}

export interface WatchRecordsRequest__Output {
}
