import type {
  ContentAdded,
  ContentModified,
  ContentMoved,
  ContentOrdered,
  ContentRemoved,
  Delivery,
  EventBus,
  Logger,
  Subscription,
} from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import type { Catalog } from '../store/catalog';

/** Keeps the catalog in step with content events; resolves after the effect is stored, so the bus acks then. */
export function subscribeToContent(bus: EventBus, catalog: Catalog, log: Logger): Promise<Subscription> {
  return bus.subscribe(
    { group: 'search', patterns: ['content.#'], prefetch: 16 },
    async ({ event, attempt }: Delivery) => {
      const at = new Date().toISOString();
      switch (event.type) {
        case 'content.added':
        case 'content.modified':
        case 'content.moved':
        case 'content.ordered': {
          // Each carries the object's whole indexable state at its version; the catalog keeps the newest.
          const { snapshot } = event.payload as ContentAdded | ContentModified | ContentMoved | ContentOrdered;
          await catalog.put(entryFrom(snapshot, at));
          break;
        }
        case 'content.removed': {
          const { removed_uids } = event.payload as ContentRemoved;
          await catalog.markRemoved(removed_uids, at);
          break;
        }
        default:
          // Other content events do not change what the catalog holds.
          break;
      }
      log.debug({ requestId: event.requestId, eventType: event.type, eventId: event.id, attempt }, 'event applied');
    },
  );
}
