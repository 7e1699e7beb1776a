// Original file: proto/cms/config/v1/config.proto


export interface RecordsChanged {
  'names'?: (string)[];
}

export interface RecordsChanged__Output {
  'names': (string)[];
}
