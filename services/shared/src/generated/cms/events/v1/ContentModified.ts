// Original file: proto/cms/events/v1/content_events.proto

import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from '../../../cms/events/v1/ContentSnapshot';

export interface ContentModified {
  'uid'?: (string);
  'version'?: (number);
  'changed'?: (string)[];
  'snapshot'?: (_cms_events_v1_ContentSnapshot | null);
}

export interface ContentModified__Output {
  'uid': (string);
  'version': (number);
  'changed': (string)[];
  'snapshot': (_cms_events_v1_ContentSnapshot__Output | null);
}
