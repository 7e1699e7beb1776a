// Original file: proto/cms/config/v1/config.proto


export interface ChangeSchemaResult {
  'created'?: (string);
  'fieldset'?: (boolean);
}

export interface ChangeSchemaResult__Output {
  'created': (string);
  'fieldset': (boolean);
}
