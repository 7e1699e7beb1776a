// Original file: proto/cms/discussion/v1/discussion.proto

import type { CommentRecord as _cms_discussion_v1_CommentRecord, CommentRecord__Output as _cms_discussion_v1_CommentRecord__Output } from '../../../cms/discussion/v1/CommentRecord';

export interface Conversation {
  'content_uid'?: (string);
  'comments'?: (_cms_discussion_v1_CommentRecord)[];
}

export interface Conversation__Output {
  'content_uid': (string);
  'comments': (_cms_discussion_v1_CommentRecord__Output)[];
}
