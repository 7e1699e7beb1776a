// Original file: proto/cms/config/v1/config.proto

import type { FieldKind as _cms_config_v1_FieldKind, FieldKind__Output as _cms_config_v1_FieldKind__Output } from '../../../cms/config/v1/FieldKind';
import type { Choices as _cms_config_v1_Choices, Choices__Output as _cms_config_v1_Choices__Output } from '../../../cms/config/v1/Choices';

export interface FieldDefinition {
  'name'?: (string);
  'kind'?: (_cms_config_v1_FieldKind);
  'title'?: (string);
  'description'?: (string);
  'fieldset'?: (string);
  'required'?: (boolean);
  'default_json'?: (string);
  'choices'?: (_cms_config_v1_Choices | null);
  'vocabulary'?: (string);
  'max_length'?: (number);
  'min_length'?: (number);
  'min'?: (number | string);
  'max'?: (number | string);
  'transient'?: (boolean);
  'searchable'?: (boolean);
  'widget'?: (string);
  '_required'?: "required";
  '_default_json'?: "default_json";
  '_vocabulary'?: "vocabulary";
  '_max_length'?: "max_length";
  '_min_length'?: "min_length";
  '_min'?: "min";
  '_max'?: "max";
  '_transient'?: "transient";
  '_searchable'?: "searchable";
  '_widget'?: "widget";
}

export interface FieldDefinition__Output {
  'name': (string);
  'kind': (_cms_config_v1_FieldKind__Output);
  'title': (string);
  'description': (string);
  'fieldset': (string);
  'required'?: (boolean);
  'default_json'?: (string);
  'choices': (_cms_config_v1_Choices__Output | null);
  'vocabulary'?: (string);
  'max_length'?: (number);
  'min_length'?: (number);
  'min'?: (number);
  'max'?: (number);
  'transient'?: (boolean);
  'searchable'?: (boolean);
  'widget'?: (string);
  '_required'?: "required";
  '_default_json'?: "default_json";
  '_vocabulary'?: "vocabulary";
  '_max_length'?: "max_length";
  '_min_length'?: "min_length";
  '_min'?: "min";
  '_max'?: "max";
  '_transient'?: "transient";
  '_searchable'?: "searchable";
  '_widget'?: "widget";
}
