import { decodeEvent, encodeEvent, EVENT_TYPES, isEventType } from '../../src/events/codec';
import type { EventType } from '../../src/events/event-types';
import type { EventEnvelope } from '../../src/ports/bus';
import { forgedMessages, forgeEnvelope, payloadOf, snapshotOf, uid, validEvent } from './fixtures';

/** Encodes `event` and decodes it as a consumer would; the reason when it is refused. */
function roundTrip(event: EventEnvelope, routingKey = event.type) {
  return decodeEvent(encodeEvent(event), routingKey);
}

function refusal(event: EventEnvelope): string {
  const decoded = roundTrip(event);
  if (decoded.ok) throw new Error(`${event.type} was accepted`);
  return decoded.reason;
}

/** A valid event of `type` with its payload changed by `change`. */
function broken<T extends EventType>(type: T, change: (payload: Record<string, unknown>) => void): EventEnvelope {
  const event = validEvent(type) as EventEnvelope<Record<string, unknown>>;
  change(event.payload);
  return event;
}

describe('event codec', () => {
  it('knows the eleven event types', () => {
    expect(EVENT_TYPES.sort()).toEqual([
      'comment.added',
      'comment.modified',
      'comment.published',
      'comment.removed',
      'content.added',
      'content.modified',
      'content.moved',
      'content.ordered',
      'content.removed',
      'identity.group.removed',
      'identity.user.removed',
    ]);
    expect(isEventType('content.added')).toBe(true);
    expect(isEventType('toString')).toBe(false);
  });

  it.each(EVENT_TYPES)('a %s event comes back as it was published', (type) => {
    const event = validEvent(type, 'req-7');
    const decoded = roundTrip(event);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.event).toMatchObject({ ...event, requestId: 'req-7' });
    expect(decoded.event.type).toBe(type);
  });

  it('carries the actor a write path named, and none where it named none', () => {
    const named = roundTrip({ ...validEvent('content.modified', 'req-8'), actor: 'edith' });
    if (!named.ok) throw new Error(named.reason);
    expect(named.event.actor).toBe('edith');
    const unnamed = roundTrip(validEvent('content.modified', 'req-9'));
    if (!unnamed.ok) throw new Error(unnamed.reason);
    expect('actor' in unnamed.event).toBe(false);
  });

  it('leaves out what is unset: the request id, and null or missing optional strings of an outbox', () => {
    const event = validEvent('content.added');
    delete event.requestId;
    const stored = {
      ...event.payload.snapshot,
      review_state: null,
      effective: null,
    } as unknown as typeof event.payload.snapshot;
    const decoded = roundTrip({ ...event, payload: { ...event.payload, snapshot: stored } });
    if (!decoded.ok || decoded.event.type !== 'content.added') throw new Error('not decoded');
    expect('requestId' in decoded.event).toBe(false);
    const { snapshot } = decoded.event.payload;
    expect(snapshot.review_state).toBeUndefined();
    expect(snapshot.effective).toBeUndefined();
    expect(snapshot.expires).toBeUndefined();
    expect(snapshot.title).toBe('Doc');
  });

  it('refuses to encode an unknown type or a payload that does not fit its message', () => {
    expect(() => encodeEvent({ ...validEvent('content.added'), type: 'content.locked' })).toThrow(/unknown type/);
    expect(() => encodeEvent(broken('content.modified', (p) => (p.changed = 'title')))).toThrow(/array expected/);
  });

  it.each(forgedMessages().map((forged) => [forged.what, forged] as const))('refuses %s', (_what, { body, reason }) => {
    const decoded = decodeEvent(body, 'content.added');
    expect(decoded).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('refuses an event from before the proto wire format (JSON)', () => {
    const decoded = decodeEvent(Buffer.from(JSON.stringify(validEvent('content.added'))), 'content.added');
    expect(decoded.ok).toBe(false);
  });

  it('refuses a message whose routing key, type and payload disagree', () => {
    const event = validEvent('identity.user.removed');
    expect(roundTrip(event, 'content.added')).toEqual({
      ok: false,
      reason: 'type identity.user.removed was routed as content.added',
    });
    const mismatched = forgeEnvelope({
      id: 'e1',
      type: 'content.removed',
      occurred_at: new Date().toISOString(),
      content_added: payloadOf('content.added'),
    });
    expect(decodeEvent(mismatched, 'content.removed')).toEqual({
      ok: false,
      reason: 'type content.removed without its payload content_removed',
    });
  });
});

describe('event validation', () => {
  const cases: [string, EventEnvelope, string][] = [
    ['an empty id', { ...validEvent('content.added'), id: '' }, 'id is empty'],
    ['an occurred_at that is no instant', { ...validEvent('content.added'), occurredAt: 'yesterday' }, 'occurred_at'],
    ['a short uid', broken('content.added', (p) => (p.uid = 'abc')), 'uid is not 32 hex digits'],
    ['an upper-case uid', broken('content.removed', (p) => (p.uid = 'A'.repeat(32))), 'uid is not 32 hex digits'],
    ['version 0', broken('content.modified', (p) => (p.version = 0)), 'version is not a positive integer'],
    ['no snapshot', broken('content.added', (p) => (p.snapshot = null)), 'snapshot is missing'],
    [
      'a snapshot of another object',
      broken('content.added', (p) => (p.snapshot = snapshotOf(uid()))),
      'snapshot.uid differs from uid',
    ],
    [
      'a snapshot at another version',
      broken('content.modified', (p) => (p.snapshot = snapshotOf(p.uid as string, { version: 2 }))),
      'snapshot.version differs from version',
    ],
    [
      'a relative snapshot path',
      broken('content.added', (p) => (p.snapshot = snapshotOf(p.uid as string, { path: 'folder/doc' }))),
      'snapshot.path does not start with /',
    ],
    [
      'a snapshot below the root without a parent',
      broken('content.added', (p) => (p.snapshot = snapshotOf(p.uid as string, { parent_uid: '' }))),
      'snapshot.parent_uid',
    ],
    [
      'a snapshot whose effective date is no instant',
      broken('content.added', (p) => (p.snapshot = snapshotOf(p.uid as string, { effective: 'soon' }))),
      'snapshot.effective or expires',
    ],
    ['a modification of no field', broken('content.modified', (p) => (p.changed = [])), 'changed names no field'],
    ['a relative removed path', broken('content.removed', (p) => (p.path = 'doc')), 'path does not start with /'],
    ['no removed uids', broken('content.removed', (p) => (p.removed_uids = [])), 'removed_uids does not contain uid'],
    [
      'removed uids without the object',
      broken('content.removed', (p) => (p.removed_uids = [uid()])),
      'removed_uids does not contain uid',
    ],
    [
      'a move to a relative path',
      broken('content.moved', (p) => (p.new_path = 'folder/doc')),
      'old_path or new_path does not start with /',
    ],
    [
      'a move whose snapshot is elsewhere',
      broken('content.moved', (p) => (p.new_path = '/other/doc')),
      'snapshot.path differs from new_path',
    ],
    ['a negative position', broken('content.ordered', (p) => (p.position = -1)), 'position is negative'],
    [
      'a position the snapshot does not have',
      broken('content.ordered', (p) => (p.position = 5)),
      'snapshot.position differs from position',
    ],
    ['an empty user id', broken('identity.user.removed', (p) => (p.user_id = '')), 'user_id is empty'],
    ['an empty group id', broken('identity.group.removed', (p) => (p.group_id = '')), 'group_id is empty'],
    ['a comment on no uid', broken('comment.added', (p) => (p.content_uid = 'doc')), 'content_uid is not 32 hex'],
    ['a comment id that is no number', broken('comment.modified', (p) => (p.comment_id = 'x')), 'comment_id'],
    ['a reply to no comment id', broken('comment.added', (p) => (p.in_reply_to = '../x')), 'in_reply_to'],
    ['an unknown comment state', broken('comment.added', (p) => (p.review_state = 'spam')), 'review_state'],
    [
      'a comment removal without the comment',
      broken('comment.removed', (p) => (p.removed_ids = ['1'])),
      'removed_ids does not contain comment_id',
    ],
    ['a comment published at version 0', broken('comment.published', (p) => (p.version = 0)), 'version'],
  ];

  it.each(cases)('refuses %s', (_what, event, problem) => {
    const reason = refusal(event);
    expect(reason.startsWith(`invalid ${event.type}: `)).toBe(true);
    expect(reason).toContain(problem);
  });

  it('accepts the site root, which has no parent', () => {
    const root = uid();
    const event = validEvent('content.added');
    event.payload = { uid: root, version: 1, snapshot: snapshotOf(root, { path: '/', id: 'cms', parent_uid: '' }) };
    expect(roundTrip(event).ok).toBe(true);
  });
});
