// Original file: proto/cms/config/v1/config.proto


export interface TypesChanged {
  'names'?: (string)[];
}

export interface TypesChanged__Output {
  'names': (string)[];
}
