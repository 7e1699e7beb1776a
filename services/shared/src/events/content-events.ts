/**
 * Events of the content area, as defined in proto/cms/events/v1/content_events.proto
 * (indexed in proto/EVENTS.md). Each names the object and its version, so
 * consumers apply them idempotently (an event whose version is not newer than
 * what a consumer holds is skipped), and carries a snapshot of it; search does
 * not index an event on its word but confirms the object with content first
 * (anyone who can publish could forge a well-formed event).
 */
import type { ContentAdded__Output } from '../generated/cms/events/v1/ContentAdded';
import type { ContentModified__Output } from '../generated/cms/events/v1/ContentModified';
import type { ContentMoved__Output } from '../generated/cms/events/v1/ContentMoved';
import type { ContentOrdered__Output } from '../generated/cms/events/v1/ContentOrdered';
import type { ContentRemoved__Output } from '../generated/cms/events/v1/ContentRemoved';
import type { ContentSnapshot__Output } from '../generated/cms/events/v1/ContentSnapshot';

/**
 * The indexable state of one content object (cms.events.v1.ContentSnapshot), also what
 * ContentService look-ups return. `review_state`, `effective` and `expires` are absent when unset.
 */
export type ContentSnapshot = ContentSnapshot__Output;

/** A validated event always has its snapshot; the generated type allows none, as the wire does. */
type WithSnapshot<T> = Omit<T, 'snapshot'> & { snapshot: ContentSnapshot };

export type ContentAdded = WithSnapshot<ContentAdded__Output>;
export type ContentModified = WithSnapshot<ContentModified__Output>;
export type ContentRemoved = ContentRemoved__Output;
/** The object now lives at another path (moved to another folder, or renamed); one per object of a moved subtree. */
export type ContentMoved = WithSnapshot<ContentMoved__Output>;
/** The object's place among its siblings changed (folder re-ordered or re-sorted); one per object whose position changed. */
export type ContentOrdered = WithSnapshot<ContentOrdered__Output>;

export interface ContentEventPayloads {
  'content.added': ContentAdded;
  'content.modified': ContentModified;
  'content.moved': ContentMoved;
  'content.ordered': ContentOrdered;
  'content.removed': ContentRemoved;
}

export type ContentEventType = keyof ContentEventPayloads;
