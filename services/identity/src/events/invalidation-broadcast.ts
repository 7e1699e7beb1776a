import { joinReplicas, protos, type BroadcastSubscription, type EventBus, type Logger } from '@cms/shared';
import type { Invalidation, InvalidationHub } from '../domain/invalidations';

/** The bus topic identity replicas tell each other what credentials no gateway may trust any more. */
export const INVALIDATION_TOPIC = 'identity.invalidation';

/**
 * Joins `hub` to the other identity replicas over the bus: what it publishes is
 * broadcast (a `cms.identity.v1.Invalidation`, as the watch streams carry it),
 * and what the others broadcast reaches its own streams and listeners. The
 * hub's `accepting` follows the subscription's `live`.
 */
export async function broadcastInvalidations(
  hub: InvalidationHub,
  bus: EventBus,
  logger: Logger,
): Promise<BroadcastSubscription> {
  const message = protos().identity.Invalidation;
  return joinReplicas<Invalidation>(
    hub,
    INVALIDATION_TOPIC,
    bus,
    {
      encode: (invalidation) => message.serialize(invalidation),
      decode: (body) => invalidationOf(message.deserialize(body)),
      undecodable(err) {
        // Unreadable: trusting nothing is the safe reading.
        logger.warn({ err }, 'an invalidation from another identity replica did not decode; invalidating everything');
        return { all: true };
      },
    },
    logger,
  );
}

/** A kind this replica does not know (a newer one's) counts as everything. */
function invalidationOf(decoded: { target?: string; token_id?: string; user_id?: string }): Invalidation {
  if (decoded.target === 'token_id' && decoded.token_id) return { token_id: decoded.token_id };
  if (decoded.target === 'user_id' && decoded.user_id) return { user_id: decoded.user_id };
  return { all: true };
}
