// Original file: proto/cms/content/v1/content.proto

import type { RebuildTranslationsResponse as _cms_content_v1_RebuildTranslationsResponse, RebuildTranslationsResponse__Output as _cms_content_v1_RebuildTranslationsResponse__Output } from '../../../cms/content/v1/RebuildTranslationsResponse';

export interface RebuildTranslationsProgress {
  'done'?: (number);
  'total'?: (number);
  'what'?: (string);
  'result'?: (_cms_content_v1_RebuildTranslationsResponse | null);
}

export interface RebuildTranslationsProgress__Output {
  'done': (number);
  'total': (number);
  'what': (string);
  'result': (_cms_content_v1_RebuildTranslationsResponse__Output | null);
}
