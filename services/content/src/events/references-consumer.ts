import { REFERENCES_GROUP, type EventBus, type Logger, type Subscription } from '@cms/shared';
import type { References } from '../domain/relations';

/**
 * Keeps the reference index in step with content: an added, changed (a revert too), or moved object has its
 * references extracted again from the object as the store has it now, never from the event's word (anyone who
 * can publish could forge one); a removal drops the objects content confirms are gone. Resolves after the
 * effect is stored, so the bus acks then; a failure is redelivered.
 */
export function subscribeReferences(bus: EventBus, references: References, log: Logger): Promise<Subscription> {
  return bus.subscribe({ ...REFERENCES_GROUP, prefetch: 8 }, async ({ event, attempt }) => {
    switch (event.type) {
      case 'content.added':
      case 'content.modified':
      case 'content.moved': {
        const outcome = await references.refresh(event.payload.uid);
        log.debug(
          { requestId: event.requestId, eventType: event.type, uid: event.payload.uid, outcome, attempt },
          'references refreshed',
        );
        break;
      }
      case 'content.removed': {
        const dropped = await references.removed(event.payload.removed_uids);
        log.debug(
          { requestId: event.requestId, eventType: event.type, uid: event.payload.uid, dropped, attempt },
          'references dropped',
        );
        break;
      }
      default:
        // Its patterns route nothing else here.
        break;
    }
  });
}
