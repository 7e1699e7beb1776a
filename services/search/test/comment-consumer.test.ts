/**
 * Comments in the catalog, fed by `comment.*` events through the in-process bus. Each event is confirmed with the
 * discussion service (a stand-in holding comments as its store would) and placed under its content object as
 * content holds it (another stand-in): the catalog indexes what they hold, never what an event says.
 */
import {
  callerTokens,
  createLogger,
  newEvent,
  QueryParams,
  type ContentSnapshot,
  type DocumentStore,
} from '@cms/shared';
import { createInProcessBus, type InProcessBus } from '@cms/shared/adapters';
import type { ContentSource } from '../src/clients/content-source';
import type { DiscussionSource } from '../src/clients/discussion-source';
import type { CommentRecord } from '../src/domain/comment-entry';
import { resultItem } from '../src/domain/metadata';
import { buildCatalogQuery } from '../src/domain/search-query';
import { SEARCH_CONSUMER_GROUPS, subscribeToContent } from '../src/events/consumer';
import { Catalog } from '../src/store/catalog';
import { STORE_ENGINES, type TestStore } from './support/store-engines';
import { rebuildCatalog } from '../src/store/rebuild';

const DOC = 'd'.repeat(32);
const PUBLIC = ['Anonymous', 'Manager', 'Site Administrator', 'Reviewer'];

function snapshot(version: number, path = '/news/doc', allowed = PUBLIC): ContentSnapshot {
  return {
    uid: DOC,
    path,
    id: path.split('/').pop()!,
    portal_type: 'Document',
    type_title: 'Page',
    title: 'The doc',
    description: '',
    version,
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    creators: ['admin'],
    parent_uid: 'f'.repeat(32),
    is_folderish: false,
    position: 0,
    searchable_text: 'the doc',
    allowed_roles_and_users: allowed,
    subjects: [],
    exclude_from_nav: false,
    language: '',
  };
}

class FakeContent implements ContentSource {
  readonly objects = new Map<string, ContentSnapshot>();
  async current(uid: string) {
    return this.objects.get(uid) ?? null;
  }
}

class FakeDiscussion implements DiscussionSource {
  readonly comments = new Map<string, CommentRecord>();
  async comment(contentUid: string, commentId: string) {
    const found = this.comments.get(commentId);
    return found && found.content_uid === contentUid ? found : null;
  }
  hold(id: string, fields: Partial<CommentRecord> = {}): CommentRecord {
    const comment: CommentRecord = {
      content_uid: DOC,
      comment_id: id,
      version: 1,
      in_reply_to: '',
      text: 'Lovely marmalade recipe',
      mime_type: 'text/plain',
      author_username: 'ann',
      author_name: '',
      review_state: 'published',
      created: '2030-01-02T10:00:00.000Z',
      modified: '2030-01-02T10:00:00.000Z',
      ...fields,
    };
    this.comments.set(id, comment);
    return comment;
  }
}

describe.each(STORE_ENGINES)('comments in the catalog on $name', (engine) => {
  let opened: TestStore;
  let store: DocumentStore;
  let bus: InProcessBus;
  let catalog: Catalog;
  let content: FakeContent;
  let discussion: FakeDiscussion;
  const log = createLogger('search', 'silent');

  beforeEach(async () => {
    opened = await engine.open();
    store = opened.store;
    bus = createInProcessBus({ topology: SEARCH_CONSUMER_GROUPS, logger: log, retryDelaysMs: [1] });
    catalog = new Catalog(store);
    await catalog.ensureIndexes();
    content = new FakeContent();
    discussion = new FakeDiscussion();
    await subscribeToContent(bus, catalog, content, log, discussion);
    content.objects.set(DOC, snapshot(1));
    await bus.publish(newEvent('content.added', { uid: DOC, version: 1, snapshot: snapshot(1) }));
  });

  afterEach(async () => {
    await bus.close();
    await opened.dispose();
  });

  const find = async (params: Record<string, string>, tokens: string[]) =>
    (
      await catalog.search(
        buildCatalogQuery(new QueryParams(Object.entries(params).map(([key, value]) => ({ key, value }))), '/', tokens),
      )
    ).items;

  const added = (c: CommentRecord) =>
    newEvent('comment.added', {
      content_uid: c.content_uid,
      comment_id: c.comment_id,
      version: c.version,
      in_reply_to: c.in_reply_to,
      author_username: c.author_username,
      review_state: c.review_state,
      created: c.created,
    });

  it('indexes a published comment under its object, found by its text by whoever may view the object', async () => {
    await bus.publish(added(discussion.hold('1001')));
    const [item] = await find({ SearchableText: 'marmalade' }, callerTokens(null));
    expect(item).toMatchObject({ portal_type: 'Discussion Item', path: '/news/doc/++conversation++default/1001' });
    expect(resultItem(item, 'http://x', [])['@id']).toBe('http://x/news/doc/++conversation++default/1001');
    const doc = await catalog.entries.findOne({ _id: DOC });
    expect(doc).toMatchObject({ total_comments: 1, last_comment_date: '2030-01-02T10:00:00.000Z' });
    expect(doc?.commentators).toEqual(['ann']);
  });

  it('shows a pending comment to moderators only, and counts it once published', async () => {
    await bus.publish(added(discussion.hold('1002', { review_state: 'pending' })));
    const pending = { portal_type: 'Discussion Item', review_state: 'pending' };
    expect(await find(pending, callerTokens(null))).toHaveLength(0);
    expect(await find(pending, ['Anonymous', 'Authenticated', 'Member', 'user:bob'])).toHaveLength(0);
    expect(await find(pending, ['Anonymous', 'Authenticated', 'Reviewer'])).toHaveLength(1);
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ total_comments: 0 });

    discussion.hold('1002', { review_state: 'published', version: 2 });
    await bus.publish(newEvent('comment.published', { content_uid: DOC, comment_id: '1002', version: 2 }));
    expect(await find({ SearchableText: 'marmalade' }, callerTokens(null))).toHaveLength(1);
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ total_comments: 1 });
  });

  it('drops a comment event that discussion does not confirm', async () => {
    await bus.publish(
      added({ ...discussion.hold('1003'), comment_id: '9999' }), // no comment 9999 in discussion
    );
    expect(await catalog.entries.countDocuments({ portal_type: 'Discussion Item' })).toBe(0);
  });

  it('follows its object: a move, a change of who may view it, a removal', async () => {
    await bus.publish(added(discussion.hold('1004')));
    content.objects.set(DOC, snapshot(2, '/archive/doc', ['Manager']));
    await bus.publish(
      newEvent('content.moved', {
        uid: DOC,
        version: 2,
        old_path: '/news/doc',
        new_path: '/archive/doc',
        old_parent_uid: 'f'.repeat(32),
        new_parent_uid: 'f'.repeat(32),
        snapshot: snapshot(2, '/archive/doc', ['Manager']),
      }),
    );
    expect(bus.deadLetters('search')).toEqual([]);
    expect(await find({ SearchableText: 'marmalade' }, callerTokens(null))).toHaveLength(0);
    const [moved] = await find({ SearchableText: 'marmalade' }, ['Manager']);
    expect(moved.path).toBe('/archive/doc/++conversation++default/1004');

    content.objects.delete(DOC);
    await bus.publish(newEvent('content.removed', { uid: DOC, version: 3, path: '/archive/doc', removed_uids: [DOC] }));
    expect(await find({ SearchableText: 'marmalade' }, ['Manager'])).toHaveLength(0);
  });

  it('removes a comment and its replies that discussion confirms gone, and recounts', async () => {
    await bus.publish(added(discussion.hold('1005')));
    await bus.publish(added(discussion.hold('1006', { in_reply_to: '1005', author_username: 'bob' })));
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ total_comments: 2 });
    discussion.comments.clear();
    await bus.publish(
      newEvent('comment.removed', { content_uid: DOC, comment_id: '1005', version: 2, removed_ids: ['1005', '1006'] }),
    );
    expect(await find({ SearchableText: 'marmalade' }, ['Manager'])).toHaveLength(0);
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ total_comments: 0, commentators: [] });
  });

  it('keeps comments and the conversation columns through a reindex from the content and discussion stores', async () => {
    await bus.publish(added(discussion.hold('1007')));
    async function* scan() {
      yield snapshot(2);
    }
    const comments = () => discussion.comments.values();
    const result = await rebuildCatalog(
      catalog,
      { snapshots: scan, comments },
      {
        now: () => new Date(),
        tombstoneRetentionMs: 60_000,
      },
    );
    expect(result).toMatchObject({ indexed: 2, removed: 0 });
    expect(await find({ SearchableText: 'marmalade' }, callerTokens(null))).toHaveLength(1);
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ version: 2, total_comments: 1 });
  });

  it('makes the comments equal to discussion on a reindex: what its events missed is added, what is gone removed', async () => {
    await bus.publish(added(discussion.hold('1008')));
    // Discussion lost 1008 and gained 1009 and 1010 without the catalog hearing of it.
    discussion.comments.delete('1008');
    discussion.hold('1009', { text: 'Quince jelly', author_username: 'bob' });
    discussion.hold('1010', { text: 'Quince paste', author_username: 'cyd', review_state: 'pending' });
    async function* scan() {
      yield snapshot(2);
    }
    const result = await rebuildCatalog(
      catalog,
      { snapshots: scan, comments: () => discussion.comments.values() },
      {
        now: () => new Date(),
        tombstoneRetentionMs: 60_000,
      },
    );
    expect(result).toMatchObject({ indexed: 3, removed: 1 });
    expect(await find({ SearchableText: 'marmalade' }, ['Manager'])).toHaveLength(0);
    expect((await find({ SearchableText: 'quince' }, ['Manager'])).map((r) => r.id).sort()).toEqual(['1009', '1010']);
    expect(await find({ SearchableText: 'quince' }, callerTokens(null))).toHaveLength(1);
    expect(await catalog.entries.findOne({ _id: DOC })).toMatchObject({ total_comments: 1, commentators: ['bob'] });
  });
});
