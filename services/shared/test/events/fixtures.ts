/** Valid events of every type, and forged messages, for the codec and bus tests. */
import { randomUUID } from 'node:crypto';
import * as protoLoader from '@grpc/proto-loader';
import type { MessageTypeDefinition } from '@grpc/proto-loader';
import type { ContentSnapshot } from '../../src/events/content-events';
import { newEvent } from '../../src/events/envelope';
import type { EventPayloads, EventType } from '../../src/events/event-types';
import type { EventEnvelope } from '../../src/ports/bus';
import type { Envelope, Envelope__Output } from '../../src/generated/cms/events/v1/Envelope';
import { LOADER_OPTIONS } from '../../src/grpc/loader';

export const uid = () => randomUUID().replace(/-/g, '');

export function snapshotOf(objectUid: string, extra: Partial<ContentSnapshot> = {}): ContentSnapshot {
  return {
    uid: objectUid,
    path: '/folder/doc',
    id: 'doc',
    portal_type: 'Document',
    type_title: 'Page',
    title: 'Doc',
    description: 'About things',
    review_state: 'private',
    version: 1,
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-02T00:00:00.000Z',
    creators: ['admin'],
    parent_uid: PARENT,
    is_folderish: false,
    position: 2,
    searchable_text: 'doc Doc About things',
    allowed_roles_and_users: ['Manager', 'user:admin'],
    subjects: ['red'],
    effective: '2030-01-03T00:00:00.000Z',
    exclude_from_nav: false,
    language: 'en',
    ...extra,
  };
}

const PARENT = 'f'.repeat(32);

/** A valid payload of each type for the object `objectUid` at `version`. */
export function payloadOf<T extends EventType>(type: T, objectUid = uid(), version = 1): EventPayloads[T] {
  const snapshot = snapshotOf(objectUid, { version });
  const payloads: { [K in EventType]: EventPayloads[K] } = {
    'content.added': { uid: objectUid, version, snapshot },
    'content.modified': { uid: objectUid, version, changed: ['title'], snapshot },
    'content.removed': { uid: objectUid, version, path: '/folder/doc', removed_uids: [objectUid, uid()] },
    'content.moved': {
      uid: objectUid,
      version,
      old_path: '/old/doc',
      new_path: '/folder/doc',
      old_parent_uid: 'e'.repeat(32),
      new_parent_uid: PARENT,
      snapshot,
    },
    'content.ordered': { uid: objectUid, version, parent_uid: PARENT, position: 2, snapshot },
    'identity.user.removed': { user_id: 'ann' },
    'identity.group.removed': { group_id: 'editors' },
    'comment.added': {
      content_uid: objectUid,
      comment_id: '1400000000000001',
      version,
      in_reply_to: '1400000000000000',
      author_username: 'ann',
      review_state: 'pending',
      created: '2030-01-01T00:00:00.000Z',
    },
    'comment.modified': {
      content_uid: objectUid,
      comment_id: '1400000000000001',
      version,
      modified: '2030-01-01T00:00:00.000Z',
    },
    'comment.removed': {
      content_uid: objectUid,
      comment_id: '1400000000000000',
      version,
      removed_ids: ['1400000000000000', '1400000000000001'],
    },
    'comment.published': { content_uid: objectUid, comment_id: '1400000000000001', version },
  };
  return payloads[type];
}

export function validEvent<T extends EventType>(type: T, requestId?: string): EventEnvelope<EventPayloads[T]> {
  return newEvent(type, payloadOf(type), requestId);
}

let envelopeType: MessageTypeDefinition<Envelope, Envelope__Output> | undefined;

/** Encodes any Envelope, valid or not, as a forger would: no type or payload check. */
export function forgeEnvelope(message: Envelope): Buffer {
  envelopeType ??= protoLoader.loadSync('cms/events/v1/events.proto', LOADER_OPTIONS)[
    'cms.events.v1.Envelope'
  ] as MessageTypeDefinition<Envelope, Envelope__Output>;
  return envelopeType.serialize(message);
}

/** Three messages a consumer must refuse, each routed as `content.added`, with the reason it gives. */
export function forgedMessages(): { what: string; body: Buffer; reason: RegExp }[] {
  const occurred_at = new Date().toISOString();
  return [
    { what: 'bytes that are not a proto', body: Buffer.from('{not json'), reason: /not an event envelope/ },
    {
      what: 'an unknown type',
      body: forgeEnvelope({
        id: randomUUID(),
        type: 'content.locked',
        occurred_at,
        content_added: payloadOf('content.added'),
      }),
      reason: /unknown type "content.locked"/,
    },
    {
      what: 'a valid proto that fails validation',
      body: forgeEnvelope({
        id: randomUUID(),
        type: 'content.added',
        occurred_at,
        content_added: { ...payloadOf('content.added'), uid: 'not-a-uid' },
      }),
      reason: /invalid content.added: uid is not 32 hex digits/,
    },
  ];
}
