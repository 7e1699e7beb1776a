// Original file: proto/cms/events/v1/content_events.proto

import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from '../../../cms/events/v1/ContentSnapshot';

export interface ContentAdded {
  'uid'?: (string);
  'version'?: (number);
  'snapshot'?: (_cms_events_v1_ContentSnapshot | null);
}

export interface ContentAdded__Output {
  'uid': (string);
  'version': (number);
  'snapshot': (_cms_events_v1_ContentSnapshot__Output | null);
}
