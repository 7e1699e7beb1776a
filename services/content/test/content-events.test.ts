import {
  decodeEvent,
  encodeEvent,
  matchesTopic,
  type EventEnvelope,
  type EventType,
  type Principal__Output,
} from '@cms/shared';
import { CONTENT_CONSUMER_GROUPS } from '../src/events/identity-consumer';
import { addedEvent, modifiedEvent, movedEvent, orderedEvent, removedEvent } from '../src/domain/content';
import { ContentCommands, snapshot } from '../src/domain/content';
import type { FileStorage } from '../src/domain/files';
import type { FolderOrdering } from '../src/domain/tree';
import type { ContentDoc } from '../src/domain/content';
import type { ContentRepository, ContentWriteStore, StoredChange } from '../src/domain/content';
import type { SubtreeFollower } from '../src/domain/tree';
import { builtinTypeRegistry } from '../src/domain/types';
import { ContentWriter } from '../src/domain/content';

const admin: Principal__Output = { id: 'admin', roles: ['Manager'], groups: [], fullname: 'Admin' };

function doc(extra: Partial<ContentDoc> = {}): ContentDoc {
  return {
    _id: 'u1',
    path: '/doc',
    id: 'doc',
    portal_type: 'Document',
    parent_uid: 'root',
    ancestors: ['root'],
    position: 0,
    next_position: 0,
    title: 'Doc',
    description: 'About things',
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    creators: ['admin'],
    review_state: 'private',
    version: 3,
    effective_local_roles: [],
    ...extra,
  };
}

describe('what content events carry', () => {
  it('the snapshot has what search needs: tags, dates, navigation flag, language, text without HTML', () => {
    const snap = snapshot(
      doc({
        effective: '2030-02-01T00:00:00.000Z',
        fields: {
          subjects: ['red', 'blue'],
          language: 'de',
          exclude_from_nav: true,
          text: { 'content-type': 'text/html', data: '<p>Fish &amp; <b>chips</b></p>', encoding: 'utf-8' },
        },
      }),
    );
    expect(snap).toMatchObject({
      subjects: ['red', 'blue'],
      effective: '2030-02-01T00:00:00.000Z',
      exclude_from_nav: true,
      language: 'de',
    });
    // Unset, not null: cms.events.v1.ContentSnapshot has `optional` strings.
    expect(snap.expires).toBeUndefined();
    expect(snap.searchable_text).toBe('doc Doc About things red blue Fish & chips');
    expect(snapshot(doc())).toMatchObject({ subjects: [], exclude_from_nav: false, language: '' });
  });

  it('a modified event names the fields the write changed, and nothing is written for an empty change', async () => {
    const events: EventEnvelope[] = [];
    let stored = doc();
    const store: ContentWriteStore = {
      byUid: async () => stored,
      insertNew: async () => false,
      applyChange: async (_uid: string, version: number, change: StoredChange, written: EventEnvelope[]) => {
        if (version !== stored.version) return false;
        events.push(...written);
        stored = { ...stored, ...change.set };
        return true;
      },
    };
    const files = { release: async () => undefined } as unknown as FileStorage;
    const types = builtinTypeRegistry();
    const commands = new ContentCommands(
      {} as ContentRepository,
      new ContentWriter(store, { flush: async () => undefined }),
      files,
      types,
      {} as SubtreeFollower,
      {} as FolderOrdering,
    );
    const caller = { principal: admin, requestId: 'r1', publicUrl: 'http://x' };
    const changes = types.patchSchema(types.get('Document')).parse({
      title: 'New',
      subjects: ['tag'],
      changeNote: 'why',
      '@type': 'Document',
    });

    const updated = await commands.update(stored, { values: changes }, caller);
    expect(updated).toMatchObject({ title: 'New', version: 4, fields: { subjects: ['tag'] } });
    expect(stored).toMatchObject({ title: 'New', version: 4, fields: { subjects: ['tag'] } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'content.modified',
      payload: { uid: 'u1', version: 4, changed: ['title', 'subjects'], snapshot: { title: 'New', subjects: ['tag'] } },
    });

    // A change note alone is no change of the object.
    const note = types.patchSchema(types.get('Document')).parse({ changeNote: 'x' });
    await commands.update(stored, { values: note }, caller);
    expect(events).toHaveLength(1);
  });
});

describe('content events on the bus', () => {
  const uid = (digit: string) => digit.repeat(32);
  const inFolder = (extra: Partial<ContentDoc>) =>
    doc({ _id: uid('b'), path: '/folder/doc', parent_uid: uid('a'), ancestors: [uid('0'), uid('a')], ...extra });

  it('every event content builds passes the decoding and validation its consumers apply', () => {
    const before = inFolder({ version: 3 });
    const moved = inFolder({ version: 4, path: '/other/doc', parent_uid: uid('c'), ancestors: [uid('0'), uid('c')] });
    const events = [
      addedEvent(inFolder({ version: 1 }), 'r1'),
      modifiedEvent(inFolder({ version: 4, review_state: null }), ['title']),
      movedEvent(before, moved),
      orderedEvent(inFolder({ version: 4, position: 3 })),
      removedEvent(before, 4, [uid('b'), uid('d')]),
    ];
    for (const event of events) {
      expect({ type: event.type, decoded: decodeEvent(encodeEvent(event), event.type) }).toMatchObject({
        decoded: { ok: true },
      });
    }
  });

  it('content declares the queue that receives identity removals', () => {
    const routedToContent = (type: EventType) =>
      CONTENT_CONSUMER_GROUPS.some(
        ({ group, patterns }) => group === 'content' && patterns.some((p) => matchesTopic(p, type)),
      );
    expect(routedToContent('identity.user.removed')).toBe(true);
    expect(routedToContent('identity.group.removed')).toBe(true);
    expect(routedToContent('content.added')).toBe(false);
  });
});
