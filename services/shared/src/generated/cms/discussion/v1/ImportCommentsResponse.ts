// Original file: proto/cms/discussion/v1/discussion.proto

import type { RefusedComment as _cms_discussion_v1_RefusedComment, RefusedComment__Output as _cms_discussion_v1_RefusedComment__Output } from '../../../cms/discussion/v1/RefusedComment';

export interface ImportCommentsResponse {
  'created'?: (number);
  'skipped'?: (number);
  'refused'?: (_cms_discussion_v1_RefusedComment)[];
}

export interface ImportCommentsResponse__Output {
  'created': (number);
  'skipped': (number);
  'refused': (_cms_discussion_v1_RefusedComment__Output)[];
}
