// Original file: proto/cms/config/v1/config.proto


export interface FieldsetDefinition {
  'id'?: (string);
  'title'?: (string);
  'description'?: (string);
}

export interface FieldsetDefinition__Output {
  'id': (string);
  'title': (string);
  'description': (string);
}
