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
import type { PrincipalDirectory, SharingCommands } from '../domain/sharing';

/** Every queue content consumes, for the bus of a process that runs content to declare up front. */
export const CONTENT_CONSUMER_GROUPS: ConsumerGroup[] = [
  CONTENT_GROUP,
  TRANSLATIONS_GROUP,
  REFERENCES_GROUP,
  PURGE_GROUP,
];

/**
 * Drops the local roles of removed users and groups once identity confirms they are gone: anyone who can publish
 * could forge a removal, which must not strip a live principal's roles (it is dropped with a warning). Fails, and
 * so is redelivered, while identity does not answer. Resolves after the effect is stored, so the bus acks then.
 */
export function subscribeToIdentity(
  bus: EventBus,
  sharing: SharingCommands,
  directory: Pick<PrincipalDirectory, 'describe'>,
  log: Logger,
): Promise<Subscription> {
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
    const requestId = event.requestId ?? event.id;
    // Whichever kind the event says: a user and a group share the namespace of local roles.
    if ((await directory.describe([principal], requestId)).length > 0) {
      log.warn(
        { requestId, eventId: event.id, eventType: event.type, principal },
        'removal names a principal identity still has; local roles kept',
      );
      return;
    }
    await sharing.dropPrincipal(principal, requestId);
    log.debug(
      { requestId: event.requestId, eventType: event.type, principal },
      'local roles of a removed principal dropped',
    );
  });
}
