import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from './port';

export function newEvent<P>(type: string, payload: P, requestId?: string): EventEnvelope<P> {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), requestId, payload };
}
