// Original file: proto/cms/content/v1/content.proto

import type { NotCarried as _cms_content_v1_NotCarried, NotCarried__Output as _cms_content_v1_NotCarried__Output } from '../../../cms/content/v1/NotCarried';

export interface ImportObjectResponse {
  'created'?: (boolean);
  'path'?: (string);
  'not_carried'?: (_cms_content_v1_NotCarried)[];
}

export interface ImportObjectResponse__Output {
  'created': (boolean);
  'path': (string);
  'not_carried': (_cms_content_v1_NotCarried__Output)[];
}
