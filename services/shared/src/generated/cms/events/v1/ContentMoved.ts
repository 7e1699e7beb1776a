// Original file: proto/cms/events/v1/content_events.proto

import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from '../../../cms/events/v1/ContentSnapshot';

export interface ContentMoved {
  'uid'?: (string);
  'version'?: (number);
  'old_path'?: (string);
  'new_path'?: (string);
  'old_parent_uid'?: (string);
  'new_parent_uid'?: (string);
  'snapshot'?: (_cms_events_v1_ContentSnapshot | null);
}

export interface ContentMoved__Output {
  'uid': (string);
  'version': (number);
  'old_path': (string);
  'new_path': (string);
  'old_parent_uid': (string);
  'new_parent_uid': (string);
  'snapshot': (_cms_events_v1_ContentSnapshot__Output | null);
}
