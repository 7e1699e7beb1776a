import type { Delivery, EventBus, IdentityGroupRemoved, IdentityUserRemoved, Logger, Subscription } from '@cms/shared';
import type { SharingCommands } from '../domain/sharing-commands';

/** Drops the local roles of removed users and groups; resolves after the effect is stored, so the bus acks then. */
export function subscribeToIdentity(bus: EventBus, sharing: SharingCommands, log: Logger): Promise<Subscription> {
  return bus.subscribe(
    { group: 'content', patterns: ['identity.user.removed', 'identity.group.removed'], prefetch: 4 },
    async ({ event }: Delivery) => {
      const principal =
        event.type === 'identity.user.removed'
          ? (event.payload as IdentityUserRemoved).user_id
          : (event.payload as IdentityGroupRemoved).group_id;
      await sharing.dropPrincipal(principal, event.requestId ?? event.id);
      log.debug(
        { requestId: event.requestId, eventType: event.type, principal },
        'local roles of a removed principal dropped',
      );
    },
  );
}
