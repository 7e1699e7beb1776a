// Original file: proto/cms/config/v1/config.proto

import type { FieldDefinition as _cms_config_v1_FieldDefinition, FieldDefinition__Output as _cms_config_v1_FieldDefinition__Output } from '../../../cms/config/v1/FieldDefinition';
import type { FieldOverride as _cms_config_v1_FieldOverride, FieldOverride__Output as _cms_config_v1_FieldOverride__Output } from '../../../cms/config/v1/FieldOverride';
import type { FieldsetDefinition as _cms_config_v1_FieldsetDefinition, FieldsetDefinition__Output as _cms_config_v1_FieldsetDefinition__Output } from '../../../cms/config/v1/FieldsetDefinition';

export interface TypeDefinition {
  'name'?: (string);
  'title'?: (string);
  'description'?: (string);
  'folderish'?: (boolean);
  'layout'?: (string);
  'layouts'?: (string)[];
  'workflow'?: (boolean);
  'addable'?: (boolean);
  'behaviors'?: (string)[];
  'allow_discussion'?: (boolean);
  'schema'?: (_cms_config_v1_FieldDefinition)[];
  'overrides'?: ({[key: string]: _cms_config_v1_FieldOverride});
  'generated'?: (_cms_config_v1_FieldDefinition)[];
  'fieldsets'?: (_cms_config_v1_FieldsetDefinition)[];
  'filter_content_types'?: (boolean);
  'allowed_content_types'?: (string)[];
  '_allow_discussion'?: "allow_discussion";
  '_filter_content_types'?: "filter_content_types";
}

export interface TypeDefinition__Output {
  'name': (string);
  'title': (string);
  'description': (string);
  'folderish': (boolean);
  'layout': (string);
  'layouts': (string)[];
  'workflow': (boolean);
  'addable': (boolean);
  'behaviors': (string)[];
  'allow_discussion'?: (boolean);
  'schema': (_cms_config_v1_FieldDefinition__Output)[];
  'overrides': ({[key: string]: _cms_config_v1_FieldOverride__Output});
  'generated': (_cms_config_v1_FieldDefinition__Output)[];
  'fieldsets': (_cms_config_v1_FieldsetDefinition__Output)[];
  'filter_content_types'?: (boolean);
  'allowed_content_types': (string)[];
  '_allow_discussion'?: "allow_discussion";
  '_filter_content_types'?: "filter_content_types";
}
