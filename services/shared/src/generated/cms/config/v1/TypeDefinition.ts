// Original file: proto/cms/config/v1/config.proto


export interface TypeDefinition {
  'name'?: (string);
  'definition_json'?: (string);
}

export interface TypeDefinition__Output {
  'name': (string);
  'definition_json': (string);
}
