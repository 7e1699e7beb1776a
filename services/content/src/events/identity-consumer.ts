import {
  CONTENT_GROUP,
  PURGE_GROUP,
  REFERENCES_GROUP,
  TRANSLATIONS_GROUP,
  type ConsumerGroup,
  type EventBus,
  type Logger,
  type Subscription,
} from '@cms/shared';
import type { SharingCommands } from '../domain/sharing-commands';

/** Every queue content consumes, for the bus of a process that runs content to declare up front. */
export const CONTENT_CONSUMER_GROUPS: ConsumerGroup[] = [
  CONTENT_GROUP,
  TRANSLATIONS_GROUP,
  REFERENCES_GROUP,
  PURGE_GROUP,
];

/** Drops the local roles of removed users and groups; resolves after the effect is stored, so the bus acks then. */
export function subscribeToIdentity(bus: EventBus, sharing: SharingCommands, log: Logger): Promise<Subscription> {
  return bus.subscribe({ ...CONTENT_GROUP, prefetch: 4 }, async ({ event }) => {
    let principal: string;
    switch (event.type) {
      case 'identity.user.removed':
        principal = event.payload.user_id;
        break;
      case 'identity.group.removed':
        principal = event.payload.group_id;
        break;
      default:
        // Its patterns route nothing else here.
        return;
    }
    await sharing.dropPrincipal(principal, event.requestId ?? event.id);
    log.debug(
      { requestId: event.requestId, eventType: event.type, principal },
      'local roles of a removed principal dropped',
    );
  });
}
