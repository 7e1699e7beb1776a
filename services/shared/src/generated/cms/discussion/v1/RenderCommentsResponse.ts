// Original file: proto/cms/discussion/v1/discussion.proto

import type { RenderedComment as _cms_discussion_v1_RenderedComment, RenderedComment__Output as _cms_discussion_v1_RenderedComment__Output } from '../../../cms/discussion/v1/RenderedComment';

export interface RenderCommentsResponse {
  'comments'?: (_cms_discussion_v1_RenderedComment)[];
}

export interface RenderCommentsResponse__Output {
  'comments': (_cms_discussion_v1_RenderedComment__Output)[];
}
