import { TRANSLATIONS_GROUP, type EventBus, type Logger, type Subscription } from '@cms/shared';
import type { Translations } from '../domain/translations';

/**
 * Keeps the translation index in step with content: each event names objects, and the index takes them as
 * content stores them now (not on the event's word), so a redelivered, late or forged event changes nothing
 * wrong; a removal drops the objects content confirms are gone. Resolves after the effect is stored, so the bus
 * acks then; a consumer killed before that gets the event again.
 */
export function subscribeTranslations(bus: EventBus, translations: Translations, log: Logger): Promise<Subscription> {
  return bus.subscribe({ ...TRANSLATIONS_GROUP, prefetch: 8 }, async ({ event, attempt }) => {
    const requestId = event.requestId ?? event.id;
    switch (event.type) {
      case 'content.added':
      case 'content.modified':
      case 'content.moved':
        // A move needs nothing of the index (URLs are built from current paths); its object is checked anyway.
        await translations.follow(event.payload.uid, requestId);
        break;
      case 'content.removed':
        await translations.forget(event.payload.removed_uids);
        break;
      default:
        // Re-orderings change nothing of the groups.
        return;
    }
    log.debug({ requestId, eventType: event.type, eventId: event.id, attempt }, 'translation index follows');
  });
}
