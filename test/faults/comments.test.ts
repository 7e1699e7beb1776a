/**
 * Deleting content removes its comments over RabbitMQ, with the discussion service SIGKILLed in the middle of the
 * deletions and restarted (issue 14, item 6): the `content.removed` events wait in discussion's queue while it is
 * down and are applied, at least once, after; every deleted object's comments leave the discussion store (those
 * of objects deleted with their folder too) and the kept objects' comments stay.
 */
import { openServiceStore } from '@cms/shared/adapters';
import { describeWithBroker } from '../support/broker-tests';
import { DistributedSuite, uniqueWord } from '../support/distributed-suite';
import { pollUntil } from '../support/poll';

const SETTINGS = 'cms.app.discussion.interfaces.IDiscussionSettings';
const COMMENTS_PER_OBJECT = 3;

let suite: DistributedSuite;

interface Commented {
  path: string;
  uid: string;
}

describeWithBroker('faults: comments of deleted content, discussion SIGKILLed mid-stream', () => {
  beforeAll(async () => {
    suite = await DistributedSuite.prepare({ name: 'faults-comments', logTailChars: 6000 });
    await suite.startAll();
  }, 60_000);

  afterAll(() => suite?.dispose(), 30_000);

  /** A Document allowing discussion, with comments (one of them a reply). */
  async function commented(parent: string, id: string, type = 'Document'): Promise<Commented> {
    const created = await suite.expectHttp(201, 'POST', parent || '/', {
      '@type': type,
      id,
      title: id,
      allow_discussion: true,
    });
    const path = `${parent}/${id}`;
    let first = '';
    for (let i = 0; i < COMMENTS_PER_OBJECT; i++) {
      const response = await fetch(`${suite.baseUrl}${path}/@comments/${i === 2 ? first : ''}`, {
        method: 'POST',
        headers: { Authorization: suite.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: `Comment ${i} on ${id}` }),
      });
      if (response.status !== 204) throw new Error(`POST ${path}/@comments answered ${response.status}`);
      if (i === 0) first = (response.headers.get('location') ?? '').split('/').pop() as string;
    }
    return { path, uid: created.UID as string };
  }

  /** The comments in discussion's own store per object: read with discussion stopped, then started again. */
  async function storedCounts(objects: Commented[]): Promise<number[]> {
    await suite.process('discussion').stop(10_000);
    const env = suite.envs.discussion;
    const store = await openServiceStore('discussion', { DATA_DIR: env.DATA_DIR as string, MONGO_URL: env.MONGO_URL });
    try {
      const comments = store.collection('comments');
      return await Promise.all(objects.map(({ uid }) => comments.countDocuments({ content_uid: uid })));
    } finally {
      await store.close();
      suite.start('discussion');
      await suite.untilReady();
    }
  }

  test('every deleted object loses its comments, the kept ones keep theirs', () =>
    suite.withLogs(async () => {
      await suite.expectHttp(204, 'PATCH', '/@registry', { [`${SETTINGS}.globally_enabled`]: true });
      const word = uniqueWord();
      await suite.expectHttp(201, 'POST', '/', { '@type': 'Folder', id: word, title: word });
      const objects: Commented[] = [];
      for (let i = 0; i < 10; i++) objects.push(await commented(`/${word}`, `doc-${i}`));
      // A folder with comments and a commented object inside: both go with one deletion.
      const folder = await commented(`/${word}`, 'folder', 'Folder');
      const inside = await commented(folder.path, 'inside');
      const kept = objects.slice(0, 3);
      const deleted = objects.slice(3);

      // Deleted one after another; discussion killed after the first two, restarted after five.
      const killAfter = 2;
      const restartAfter = 5;
      let killed = Promise.resolve();
      for (const [i, target] of [...deleted, folder].entries()) {
        await suite.expectHttp(204, 'DELETE', target.path);
        if (i + 1 === killAfter) {
          killed = suite.kill('discussion').then((exit) => expect(exit.signal).toBe('SIGKILL'));
        }
        if (i + 1 === restartAfter) {
          await killed;
          suite.start('discussion');
        }
      }
      await suite.untilReady();

      for (const { path } of [...deleted, folder, inside]) {
        expect([path, (await suite.http('GET', `${path}/@comments`)).status]).toEqual([path, 404]);
      }
      for (const { path } of kept) {
        expect((await suite.expectHttp(200, 'GET', `${path}/@comments`)).items_total).toBe(COMMENTS_PER_OBJECT);
      }
      // The store converges: no comment of a deleted object is left, wherever its removal was when the kill came.
      const gone = [...deleted, folder, inside];
      const counts = await pollUntil(
        async () => {
          const stored = await storedCounts([...gone, ...kept]);
          return stored.slice(0, gone.length).every((n) => n === 0) && stored;
        },
        90_000,
        { intervalMs: 500, description: "the deleted objects' comments to leave the discussion store" },
      );
      expect(counts).toEqual([...gone.map(() => 0), ...kept.map(() => COMMENTS_PER_OBJECT)]);
    }));
});
