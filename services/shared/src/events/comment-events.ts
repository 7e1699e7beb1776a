/**
 * Events of the discussion area, as defined in proto/cms/events/v1/comment_events.proto
 * (indexed in proto/EVENTS.md). Each carries the comment's version, so a consumer
 * applies them idempotently by (comment_id, version).
 */
import type { CommentAdded__Output } from '../generated/cms/events/v1/CommentAdded';
import type { CommentModified__Output } from '../generated/cms/events/v1/CommentModified';
import type { CommentPublished__Output } from '../generated/cms/events/v1/CommentPublished';
import type { CommentRemoved__Output } from '../generated/cms/events/v1/CommentRemoved';

export type CommentAdded = CommentAdded__Output;
export type CommentModified = CommentModified__Output;
export type CommentRemoved = CommentRemoved__Output;
export type CommentPublished = CommentPublished__Output;

export interface CommentEventPayloads {
  'comment.added': CommentAdded;
  'comment.modified': CommentModified;
  'comment.removed': CommentRemoved;
  'comment.published': CommentPublished;
}

export type CommentEventType = keyof CommentEventPayloads;
