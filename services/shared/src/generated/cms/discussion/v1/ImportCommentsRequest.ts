// Original file: proto/cms/discussion/v1/discussion.proto

import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';
import type { ImportedComment as _cms_discussion_v1_ImportedComment, ImportedComment__Output as _cms_discussion_v1_ImportedComment__Output } from '../../../cms/discussion/v1/ImportedComment';

export interface ImportCommentsRequest {
  'principal'?: (_cms_common_v1_Principal | null);
  'content_uid'?: (string);
  'comments'?: (_cms_discussion_v1_ImportedComment)[];
}

export interface ImportCommentsRequest__Output {
  'principal': (_cms_common_v1_Principal__Output | null);
  'content_uid': (string);
  'comments': (_cms_discussion_v1_ImportedComment__Output)[];
}
