import { randomUUID } from 'node:crypto';
import type { EventPayloads, EventType } from './event-types';
import type { EventEnvelope } from '../ports/bus';

/** A new event as a producer records it in its outbox; the payload is checked against its type at compile time. */
export function newEvent<T extends EventType>(
  type: T,
  payload: EventPayloads[T],
  requestId?: string,
): EventEnvelope<EventPayloads[T]> {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), requestId, payload };
}
