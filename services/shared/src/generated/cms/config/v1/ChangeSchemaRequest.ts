// Original file: proto/cms/config/v1/config.proto

import type { SchemaChange as _cms_config_v1_SchemaChange, SchemaChange__Output as _cms_config_v1_SchemaChange__Output } from '../../../cms/config/v1/SchemaChange';

export interface ChangeSchemaRequest {
  'type'?: (string);
  'change'?: (_cms_config_v1_SchemaChange);
  'target'?: (string);
  'body_json'?: (string);
}

export interface ChangeSchemaRequest__Output {
  'type': (string);
  'change': (_cms_config_v1_SchemaChange__Output);
  'target': (string);
  'body_json': (string);
}
