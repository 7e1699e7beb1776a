// Original file: proto/cms/discussion/v1/discussion.proto

import type { CommentRef as _cms_discussion_v1_CommentRef, CommentRef__Output as _cms_discussion_v1_CommentRef__Output } from '../../../cms/discussion/v1/CommentRef';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface RenderCommentsRequest {
  'comments'?: (_cms_discussion_v1_CommentRef)[];
  'principal'?: (_cms_common_v1_Principal | null);
  'public_url'?: (string);
}

export interface RenderCommentsRequest__Output {
  'comments': (_cms_discussion_v1_CommentRef__Output)[];
  'principal': (_cms_common_v1_Principal__Output | null);
  'public_url': (string);
}
