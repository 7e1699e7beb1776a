// Original file: proto/cms/config/v1/config.proto


export interface RecordValues {
  'values_json'?: ({[key: string]: string});
}

export interface RecordValues__Output {
  'values_json': ({[key: string]: string});
}
