// Original file: proto/cms/config/v1/config.proto

import type { Choice as _cms_config_v1_Choice, Choice__Output as _cms_config_v1_Choice__Output } from '../../../cms/config/v1/Choice';

export interface Choices {
  'terms'?: (_cms_config_v1_Choice)[];
}

export interface Choices__Output {
  'terms': (_cms_config_v1_Choice__Output)[];
}
