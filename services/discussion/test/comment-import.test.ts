/**
 * Importing an exported conversation (`ImportComments`): ids, replies, authors, dates and states kept, each comment
 * written with its `comment.added`; a second import skips what is there; a comment whose parent is missing, whose
 * id is another object's, or whose replies loop, is refused with why while the others are imported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { CommentCommands } from '../src/domain/comment-commands';
import { parentsFirst, type ImportedComment } from '../src/domain/comment-import';
import { CommentStore } from '../src/store/comments';

const HOST = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);

const imported = (id: string, inReplyTo: string | null, extra: Partial<ImportedComment> = {}): ImportedComment => ({
  id,
  inReplyTo,
  text: `text of ${id}`,
  mimeType: 'text/plain',
  authorUsername: 'joe',
  authorName: 'Joe Sprinter',
  authorEmail: null,
  userNotification: false,
  reviewState: 'published',
  created: '2024-03-05T09:20:00.000Z',
  modified: '2024-03-05T09:25:00.000Z',
  ...extra,
});

describe('parentsFirst', () => {
  it('orders each parent before its replies, and answers the comments whose chain of replies loops', () => {
    const given = [imported('3', '2'), imported('2', '1'), imported('1', null), imported('8', '9'), imported('9', '8')];
    const { ordered, looping } = parentsFirst(given, new Set());
    expect(ordered.map((c) => c.id)).toEqual(['1', '2', '3']);
    expect(looping.map((c) => c.id)).toEqual(['8', '9']);
  });

  it('takes a reply to a comment not in the call as a root (the writer checks that its parent is there)', () => {
    const { ordered, looping } = parentsFirst([imported('5', '4')], new Set(['4']));
    expect(ordered.map((c) => c.id)).toEqual(['5']);
    expect(looping).toEqual([]);
  });
});

describe('CommentCommands.importConversation', () => {
  const log = createLogger('discussion-test', 'silent');
  let dir: string;
  let store: DocumentStore;
  let comments: CommentStore;
  let commands: CommentCommands;
  let flushed: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'discussion-import-'));
    store = await openEmbeddedStore(dir);
    comments = new CommentStore(store);
    await comments.ensureIndexes();
    flushed = [];
    const events = { flush: async (id: string) => void flushed.push(id) };
    commands = new CommentCommands(comments, events, { limit: 1, windowSeconds: 60 }, log);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps ids, replies, authors, dates and states, each comment with its comment.added', async () => {
    const outcome = await commands.importConversation(
      HOST,
      [
        imported('1709634000000002', '1709630400000001', { authorUsername: 'jane', reviewState: 'pending' }),
        imported('1709630400000001', null, { authorUsername: null, authorName: 'A visitor', userNotification: true }),
      ],
      'req-1',
    );
    // Not limited by the rate limit of one comment a minute: these were taken once already.
    expect(outcome).toEqual({ created: 2, skipped: 0, refused: [] });
    const [root, reply] = (await comments.conversation(HOST)).sort((a, b) => a._id.localeCompare(b._id));
    expect(root).toMatchObject({
      _id: '1709630400000001',
      in_reply_to: null,
      author_username: null,
      author_name: 'A visitor',
      user_notification: true,
      review_state: 'published',
      created: '2024-03-05T09:20:00.000Z',
      modified: '2024-03-05T09:25:00.000Z',
      imported: true,
    });
    expect(reply).toMatchObject({ in_reply_to: '1709630400000001', author_username: 'jane', review_state: 'pending' });
    expect(reply._outbox?.map((e) => [e.type, e.requestId])).toEqual([['comment.added', 'req-1']]);
    expect(flushed.sort()).toEqual(['1709630400000001', '1709634000000002']);
  });

  it('imported again, skips every comment by its id and writes nothing', async () => {
    const conversation = [imported('1', null), imported('2', '1')];
    await commands.importConversation(HOST, conversation, 'req-1');
    const before = await comments.conversation(HOST);
    expect(await commands.importConversation(HOST, conversation, 'req-2')).toEqual({
      created: 0,
      skipped: 2,
      refused: [],
    });
    expect(await comments.conversation(HOST)).toEqual(before);
  });

  it('refuses, with why, a reply whose parent is missing (and its replies), an id of another object, a loop', async () => {
    await commands.importConversation(OTHER, [imported('7', null)], 'req-1');
    const outcome = await commands.importConversation(
      HOST,
      [
        imported('1', null),
        imported('3', '2'),
        imported('4', '3'),
        imported('7', '1'),
        imported('8', '9'),
        imported('9', '8'),
      ],
      'req-2',
    );
    expect(outcome.created).toBe(1);
    expect(outcome.refused).toEqual(
      expect.arrayContaining([
        { commentId: '3', reason: 'its parent 2 is not on this object' },
        { commentId: '4', reason: 'its parent 3 was refused' },
        { commentId: '7', reason: 'its id is taken by a comment on another object' },
        { commentId: '8', reason: 'its chain of replies loops back to itself' },
        { commentId: '9', reason: 'its chain of replies loops back to itself' },
      ]),
    );
    expect(outcome.refused).toHaveLength(5);
    expect((await comments.conversation(HOST)).map((c) => c._id)).toEqual(['1']);
    expect(await comments.one(OTHER, '7')).toMatchObject({ in_reply_to: null });
  });
});
