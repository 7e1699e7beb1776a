import { joinReplicas, protos, type BroadcastSubscription, type EventBus, type Logger } from '@cms/shared';
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
  const message = protos().config.RecordsChanged;
  return joinReplicas<readonly string[]>(
    changes,
    topic,
    bus,
    {
      encode: (names) => message.serialize({ names: [...names] }),
      decode: (body) => message.deserialize(body).names,
      undecodable(err) {
        // Unreadable: no cache may trust what it holds.
        logger.warn({ err, topic }, 'a change from another config replica did not decode; ending every watch stream');
        changes.endStreams();
        return undefined;
      },
    },
    logger,
  );
}
