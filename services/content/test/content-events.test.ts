import { contentType, patchSchema, type EventEnvelope, type Principal__Output } from '@cms/shared';
import { ContentCommands, snapshot } from '../src/domain/content-commands';
import type { FileStorage } from '../src/domain/files';
import type { ContentDoc } from '../src/domain/model';
import type { ContentRepository } from '../src/domain/repository';

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
      expires: null,
      exclude_from_nav: true,
      language: 'de',
    });
    expect(snap.searchable_text).toBe('doc Doc About things red blue Fish & chips');
    expect(snapshot(doc())).toMatchObject({ subjects: [], exclude_from_nav: false, language: '' });
  });

  it('a modified event names the fields the write changed, and nothing is written for an empty change', async () => {
    const events: EventEnvelope[] = [];
    let stored = doc();
    const repo = {
      byUid: async () => stored,
      updateFields: async (_uid: string, version: number, set: Partial<ContentDoc>, event: EventEnvelope) => {
        if (version !== stored.version) return null;
        events.push(event);
        stored = { ...stored, ...set };
        return stored;
      },
    } as unknown as ContentRepository;
    const files = { release: async () => undefined } as unknown as FileStorage;
    const commands = new ContentCommands(repo, { flush: async () => undefined }, files);
    const caller = { principal: admin, requestId: 'r1', publicUrl: 'http://x' };
    const changes = patchSchema(contentType('Document')).parse({
      title: 'New',
      subjects: ['tag'],
      changeNote: 'why',
      '@type': 'Document',
    });

    const updated = await commands.update(stored, changes, caller);
    expect(updated).toMatchObject({ title: 'New', version: 4, fields: { subjects: ['tag'] } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'content.modified',
      payload: { uid: 'u1', version: 4, changed: ['title', 'subjects'], snapshot: { title: 'New', subjects: ['tag'] } },
    });

    // A change note alone is no change of the object.
    await commands.update(stored, patchSchema(contentType('Document')).parse({ changeNote: 'x' }), caller);
    expect(events).toHaveLength(1);
  });
});
