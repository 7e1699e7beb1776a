import type { ConsumerGroup, EventBus, Logger, Subscription } from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import type { Catalog } from '../store/catalog';

/** Search's durable queue: every content event. */
export const SEARCH_GROUP: ConsumerGroup = { group: 'search', patterns: ['content.#'] };

/** Every queue search consumes, for the bus of a process that runs search to declare up front. */
export const SEARCH_CONSUMER_GROUPS: ConsumerGroup[] = [SEARCH_GROUP];

/** Keeps the catalog in step with content events; resolves after the effect is stored, so the bus acks then. */
export function subscribeToContent(bus: EventBus, catalog: Catalog, log: Logger): Promise<Subscription> {
  return bus.subscribe({ ...SEARCH_GROUP, prefetch: 16 }, async ({ event, attempt }) => {
    const at = new Date().toISOString();
    switch (event.type) {
      case 'content.added':
      case 'content.modified':
      case 'content.moved':
      case 'content.ordered':
        // Each carries the object's whole indexable state at its version; the catalog keeps the newest.
        await catalog.put(entryFrom(event.payload.snapshot, at));
        break;
      case 'content.removed':
        await catalog.markRemoved(event.payload.removed_uids, at);
        break;
      default:
        // Other events do not change what the catalog holds.
        break;
    }
    log.debug({ requestId: event.requestId, eventType: event.type, eventId: event.id, attempt }, 'event applied');
  });
}
