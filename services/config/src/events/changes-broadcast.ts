import { randomUUID } from 'node:crypto';
import { protos, type BroadcastSubscription, type EventBus, type Logger } from '@cms/shared';
import type { RecordChanges } from '../domain/changes';

/** The bus topics config replicas tell each other which registry records and which content types were written. */
export const CHANGE_TOPICS = { records: 'config.records', types: 'config.types' } as const;

/**
 * Joins `changes` to the other config replicas over the bus: what it publishes is broadcast (a
 * `cms.config.v1.RecordsChanged`, as the watch streams carry it), and what the others broadcast reaches its own
 * streams. Its streams end whenever the subscription stops being live.
 */
export async function broadcastChanges(
  changes: RecordChanges,
  topic: string,
  bus: EventBus,
  logger: Logger,
): Promise<BroadcastSubscription> {
  // This replica's own broadcasts come back to it; its streams have had them already.
  const origin = randomUUID();
  const message = protos().config.RecordsChanged;
  const subscription = await bus.subscribeBroadcast(topic, ({ body, origin: from }) => {
    if (from === origin) return;
    let names: string[];
    try {
      names = message.deserialize(body).names;
    } catch (err) {
      // Unreadable: no cache may trust what it holds.
      logger.warn({ err, topic }, 'a change from another config replica did not decode; ending every watch stream');
      changes.endStreams();
      return;
    }
    changes.receive(names);
  });
  changes.connectReplicas({
    get live() {
      return subscription.live;
    },
    send: (names) => bus.broadcast(topic, message.serialize({ names: [...names] }), origin),
  });
  subscription.onLiveChange((live) => changes.replicasLive(live));
  return subscription;
}
