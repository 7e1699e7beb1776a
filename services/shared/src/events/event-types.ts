import type { CommentEventPayloads } from './comment-events';
import type { ContentEventPayloads } from './content-events';
import type { IdentityEventPayloads } from './identity-events';

/** Every event type on the bus, with its payload (proto/cms/events/v1). */
export interface EventPayloads extends ContentEventPayloads, IdentityEventPayloads, CommentEventPayloads {}

export type EventType = keyof EventPayloads;

/**
 * A decoded and validated event, as a consumer's handler receives it: a union
 * discriminated by `type`, so `switch (event.type)` gives each payload its type.
 */
export type DomainEvent = {
  [T in EventType]: {
    id: string;
    type: T;
    occurredAt: string;
    requestId?: string;
    /** The user whose write caused it, where the producer named one. */
    actor?: string;
    payload: EventPayloads[T];
  };
}[EventType];
