/**
 * The `content.removed` consumer through the in-process bus: the comments of objects content confirms are gone
 * are deleted, once or many times over, and a removal content contradicts deletes nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newEvent, type DocumentStore, type Subscription } from '@cms/shared';
import { createInProcessBus, openEmbeddedStore, type InProcessBus } from '@cms/shared/adapters';
import type { ContentSource } from '../src/clients/content-source';
import type { CommentDoc } from '../src/domain/comment';
import { DISCUSSION_CONSUMER_GROUPS, subscribeToEvents } from '../src/events/consumer';
import { CommentStore } from '../src/store/comments';

const uid = () => randomUUID().replace(/-/g, '');

class FakeContent implements ContentSource {
  readonly live = new Map<string, string>();
  async pathOf(id: string): Promise<string | null> {
    return this.live.get(id) ?? null;
  }
}

describe('content.removed consumer', () => {
  const log = createLogger('discussion-test', 'silent');
  let dir: string;
  let store: DocumentStore;
  let bus: InProcessBus;
  let comments: CommentStore;
  let content: FakeContent;
  let subscription: Subscription;
  let n = 0;

  async function add(contentUid: string): Promise<void> {
    const id = String(1_000_000 + ++n);
    const doc: CommentDoc = {
      _id: id,
      content_uid: contentUid,
      in_reply_to: null,
      text: 'x',
      mime_type: 'text/plain',
      author_username: 'ann',
      author_name: null,
      author_email: null,
      user_notification: null,
      review_state: 'published',
      created: '2030-01-01T00:00:00.000Z',
      modified: '2030-01-01T00:00:00.000Z',
      version: 1,
    };
    await comments.comments.insertOne(doc);
  }

  const removal = (root: string, path: string, removed: string[]) =>
    newEvent('content.removed', { uid: root, version: 2, path, removed_uids: removed });
  const count = (contentUid: string) => comments.comments.countDocuments({ content_uid: contentUid });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'discussion-consumer-'));
    store = await openEmbeddedStore(dir);
    bus = createInProcessBus({ topology: DISCUSSION_CONSUMER_GROUPS, logger: log, retryDelaysMs: [1] });
    comments = new CommentStore(store);
    await comments.ensureIndexes();
    content = new FakeContent();
    subscription = await subscribeToEvents(bus, comments, content, log);
  });
  afterEach(async () => {
    await subscription.stop();
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the comments of a removed object and of what was inside it, idempotently', async () => {
    const [folder, inside, other] = [uid(), uid(), uid()];
    await add(folder);
    await add(inside);
    await add(inside);
    await add(other);
    content.live.set(other, '/other');
    // Still found below the removed path: a deletion a crash left for later, gone all the same.
    content.live.set(inside, '/folder/doc');
    const event = removal(folder, '/folder', [folder, inside]);
    await bus.publish(event);
    expect([await count(folder), await count(inside), await count(other)]).toEqual([0, 0, 1]);
    await bus.publish(event);
    expect(await count(other)).toBe(1);
    expect(bus.deadLetters('discussion')).toEqual([]);
  });

  it('keeps the comments of an object content still has elsewhere', async () => {
    const [root, moved] = [uid(), uid()];
    await add(root);
    await add(moved);
    content.live.set(root, '/root');
    content.live.set(moved, '/elsewhere');
    await bus.publish(removal(root, '/root', [root, moved]));
    expect([await count(root), await count(moved)]).toEqual([1, 1]);
  });

  it('takes its own comment events (so that they are routable) without effect', async () => {
    const contentUid = uid();
    await add(contentUid);
    await bus.publish(newEvent('comment.published', { content_uid: contentUid, comment_id: String(n), version: 2 }));
    expect(await count(contentUid)).toBe(1);
    expect(bus.deadLetters('discussion')).toEqual([]);
  });
});
