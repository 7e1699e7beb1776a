// Original file: proto/cms/config/v1/config.proto

import type { TypeDefinition as _cms_config_v1_TypeDefinition, TypeDefinition__Output as _cms_config_v1_TypeDefinition__Output } from '../../../cms/config/v1/TypeDefinition';

export interface TypeDefinitions {
  'types'?: (_cms_config_v1_TypeDefinition)[];
}

export interface TypeDefinitions__Output {
  'types': (_cms_config_v1_TypeDefinition__Output)[];
}
