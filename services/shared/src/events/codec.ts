import * as protoLoader from '@grpc/proto-loader';
import type { MessageTypeDefinition } from '@grpc/proto-loader';
import type { Envelope, Envelope__Output } from '../generated/cms/events/v1/Envelope';
import { LOADER_OPTIONS } from '../grpc/loader';
import type { DomainEvent, EventType } from './event-types';
import type { EventEnvelope } from '../ports/bus';
import { eventProblems, type UncheckedEvent } from './validation';

/**
 * Events on the wire: one cms.events.v1.Envelope (proto/cms/events/v1/events.proto)
 * per message, in proto binary. Both bus adapters encode on publish and decode on
 * delivery here, so the in-process bus behaves as RabbitMQ does.
 */

/** The AMQP `contentType` of an encoded event. */
export const EVENT_CONTENT_TYPE = 'application/x-protobuf';

/** The Envelope's oneof member that carries each type. */
const PAYLOAD_FIELDS = {
  'content.added': 'content_added',
  'content.modified': 'content_modified',
  'content.removed': 'content_removed',
  'content.moved': 'content_moved',
  'content.ordered': 'content_ordered',
  'identity.user.removed': 'identity_user_removed',
  'identity.group.removed': 'identity_group_removed',
  'comment.added': 'comment_added',
  'comment.modified': 'comment_modified',
  'comment.removed': 'comment_removed',
  'comment.published': 'comment_published',
} as const satisfies { [T in EventType]: NonNullable<Envelope['payload']> };

export const EVENT_TYPES = Object.keys(PAYLOAD_FIELDS) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(PAYLOAD_FIELDS, type);
}

let envelopeType: MessageTypeDefinition<Envelope, Envelope__Output> | undefined;

/** Loaded once, with the gRPC contracts' loader options, so the generated types describe what decoding returns. */
function envelope(): MessageTypeDefinition<Envelope, Envelope__Output> {
  envelopeType ??= protoLoader.loadSync('cms/events/v1/events.proto', LOADER_OPTIONS)[
    'cms.events.v1.Envelope'
  ] as MessageTypeDefinition<Envelope, Envelope__Output>;
  return envelopeType;
}

/**
 * The wire form of an event as a producer built it (a plain object, as outboxes
 * keep it). Throws for a type no consumer could decode, or a payload that does
 * not fit its message: both are the producer's bugs.
 */
export function encodeEvent(event: EventEnvelope): Buffer {
  if (!isEventType(event.type)) throw new Error(`Event ${event.id} has the unknown type "${event.type}"`);
  const message = {
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt,
    // Stored outboxes may hold null for none.
    request_id: event.requestId ?? undefined,
    actor: event.actor || undefined,
    [PAYLOAD_FIELDS[event.type]]: event.payload,
  } as Envelope;
  return envelope().serialize(message);
}

export type DecodedEvent = { ok: true; event: DomainEvent } | { ok: false; reason: string };

const refused = (reason: string): DecodedEvent => ({ ok: false, reason });

/**
 * Reads one message off the bus: decodes it, checks that its routing key, type
 * and payload agree, and validates the payload. A message that fails any of these
 * is refused with the reason; the adapters dead-letter it without a retry.
 */
export function decodeEvent(body: Buffer, routingKey: string): DecodedEvent {
  let message: Envelope__Output;
  try {
    message = envelope().deserialize(body);
  } catch (error) {
    return refused(`not an event envelope: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { type } = message;
  if (!isEventType(type)) return refused(`unknown type "${type}"`);
  // A group receives what its patterns match; a forged routing key must not smuggle another type in.
  if (type !== routingKey) return refused(`type ${type} was routed as ${routingKey}`);
  const field = PAYLOAD_FIELDS[type];
  const payload = message.payload === field ? message[field] : undefined;
  if (!payload) return refused(`type ${type} without its payload ${field}`);
  const event = {
    id: message.id,
    type,
    occurredAt: message.occurred_at,
    ...(message.request_id === undefined ? {} : { requestId: message.request_id }),
    ...(message.actor ? { actor: message.actor } : {}),
    payload,
  } as UncheckedEvent;
  const problems = eventProblems(event);
  if (problems.length > 0) return refused(`invalid ${type}: ${problems.join('; ')}`);
  return { ok: true, event: event as DomainEvent };
}
