// Original file: proto/cms/events/v1/events.proto

import type { ContentAdded as _cms_events_v1_ContentAdded, ContentAdded__Output as _cms_events_v1_ContentAdded__Output } from '../../../cms/events/v1/ContentAdded';
import type { ContentModified as _cms_events_v1_ContentModified, ContentModified__Output as _cms_events_v1_ContentModified__Output } from '../../../cms/events/v1/ContentModified';
import type { ContentRemoved as _cms_events_v1_ContentRemoved, ContentRemoved__Output as _cms_events_v1_ContentRemoved__Output } from '../../../cms/events/v1/ContentRemoved';
import type { ContentMoved as _cms_events_v1_ContentMoved, ContentMoved__Output as _cms_events_v1_ContentMoved__Output } from '../../../cms/events/v1/ContentMoved';
import type { ContentOrdered as _cms_events_v1_ContentOrdered, ContentOrdered__Output as _cms_events_v1_ContentOrdered__Output } from '../../../cms/events/v1/ContentOrdered';
import type { IdentityUserRemoved as _cms_events_v1_IdentityUserRemoved, IdentityUserRemoved__Output as _cms_events_v1_IdentityUserRemoved__Output } from '../../../cms/events/v1/IdentityUserRemoved';
import type { IdentityGroupRemoved as _cms_events_v1_IdentityGroupRemoved, IdentityGroupRemoved__Output as _cms_events_v1_IdentityGroupRemoved__Output } from '../../../cms/events/v1/IdentityGroupRemoved';
import type { CommentAdded as _cms_events_v1_CommentAdded, CommentAdded__Output as _cms_events_v1_CommentAdded__Output } from '../../../cms/events/v1/CommentAdded';
import type { CommentModified as _cms_events_v1_CommentModified, CommentModified__Output as _cms_events_v1_CommentModified__Output } from '../../../cms/events/v1/CommentModified';
import type { CommentRemoved as _cms_events_v1_CommentRemoved, CommentRemoved__Output as _cms_events_v1_CommentRemoved__Output } from '../../../cms/events/v1/CommentRemoved';
import type { CommentPublished as _cms_events_v1_CommentPublished, CommentPublished__Output as _cms_events_v1_CommentPublished__Output } from '../../../cms/events/v1/CommentPublished';

export interface Envelope {
  'id'?: (string);
  'type'?: (string);
  'occurred_at'?: (string);
  'request_id'?: (string);
  'actor'?: (string);
  'content_added'?: (_cms_events_v1_ContentAdded | null);
  'content_modified'?: (_cms_events_v1_ContentModified | null);
  'content_removed'?: (_cms_events_v1_ContentRemoved | null);
  'content_moved'?: (_cms_events_v1_ContentMoved | null);
  'content_ordered'?: (_cms_events_v1_ContentOrdered | null);
  'identity_user_removed'?: (_cms_events_v1_IdentityUserRemoved | null);
  'identity_group_removed'?: (_cms_events_v1_IdentityGroupRemoved | null);
  'comment_added'?: (_cms_events_v1_CommentAdded | null);
  'comment_modified'?: (_cms_events_v1_CommentModified | null);
  'comment_removed'?: (_cms_events_v1_CommentRemoved | null);
  'comment_published'?: (_cms_events_v1_CommentPublished | null);
  '_request_id'?: "request_id";
  '_actor'?: "actor";
  'payload'?: "content_added"|"content_modified"|"content_removed"|"content_moved"|"content_ordered"|"identity_user_removed"|"identity_group_removed"|"comment_added"|"comment_modified"|"comment_removed"|"comment_published";
}

export interface Envelope__Output {
  'id': (string);
  'type': (string);
  'occurred_at': (string);
  'request_id'?: (string);
  'actor'?: (string);
  'content_added'?: (_cms_events_v1_ContentAdded__Output | null);
  'content_modified'?: (_cms_events_v1_ContentModified__Output | null);
  'content_removed'?: (_cms_events_v1_ContentRemoved__Output | null);
  'content_moved'?: (_cms_events_v1_ContentMoved__Output | null);
  'content_ordered'?: (_cms_events_v1_ContentOrdered__Output | null);
  'identity_user_removed'?: (_cms_events_v1_IdentityUserRemoved__Output | null);
  'identity_group_removed'?: (_cms_events_v1_IdentityGroupRemoved__Output | null);
  'comment_added'?: (_cms_events_v1_CommentAdded__Output | null);
  'comment_modified'?: (_cms_events_v1_CommentModified__Output | null);
  'comment_removed'?: (_cms_events_v1_CommentRemoved__Output | null);
  'comment_published'?: (_cms_events_v1_CommentPublished__Output | null);
  '_request_id'?: "request_id";
  '_actor'?: "actor";
  'payload'?: "content_added"|"content_modified"|"content_removed"|"content_moved"|"content_ordered"|"identity_user_removed"|"identity_group_removed"|"comment_added"|"comment_modified"|"comment_removed"|"comment_published";
}
