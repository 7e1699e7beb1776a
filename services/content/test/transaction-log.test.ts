import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore, Principal__Output } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import type { Caller } from '../src/domain/content';
import type { ContentDoc } from '../src/domain/content';
import { MAX_OBJECTS, TransactionJournal } from '../src/domain/history';
import { StoreTransactionLog } from '../src/store/transaction-log';

const principal = (id: string): Principal__Output => ({ id, roles: ['Manager'], groups: [], fullname: '' });
const caller = (user: string, requestId: string): Caller => ({
  principal: principal(user),
  requestId,
  publicUrl: 'http://cms.test',
});

function doc(uid: string): ContentDoc {
  return {
    _id: uid,
    path: `/${uid}`,
    id: uid,
    portal_type: 'Document',
    parent_uid: 'root',
    ancestors: ['root'],
    position: 0,
    next_position: 0,
    title: uid,
    description: '',
    created: '2030-01-01T00:00:00.000Z',
    modified: '2030-01-01T00:00:00.000Z',
    creators: ['admin'],
    review_state: 'private',
    version: 1,
  };
}

/** The transaction log on the embedded engine: one transaction per request and user, bounded in size and count. */
describe('the transaction log', () => {
  let dir: string;
  let store: DocumentStore;
  let log: StoreTransactionLog;
  const failures: unknown[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-transactions-'));
    store = await openEmbeddedStore(dir);
    log = new StoreTransactionLog(store);
    await log.ensureIndexes();
    failures.length = 0;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const journal = (keep: number) => new TransactionJournal(log, keep, (error) => failures.push(error));

  it("gathers a request's writes into one transaction, but never another user's with the same request id", async () => {
    const j = journal(10);
    await j.record({ kind: 'update', author: caller('ann', 'r1'), before: doc('a'), after: doc('a') });
    await j.record({ kind: 'create', author: caller('ann', 'r1'), before: null, after: doc('b') });
    await j.record({ kind: 'update', author: caller('bob', 'r1'), before: doc('a'), after: doc('a') });

    const newest = await log.newest(10);
    expect(newest.map((t) => [t.username, t.objects.map((o) => [o.kind, o.uid])])).toEqual([
      ['bob', [['update', 'a']]],
      [
        'ann',
        [
          ['update', 'a'],
          ['create', 'b'],
        ],
      ],
    ]);
    expect(newest[1].objects[1].before).toBeNull();
    expect(newest[1].objects[0].before).toMatchObject({ id: 'a', title: 'a' });
    expect(failures).toEqual([]);
  });

  it('keeps the newest transactions only', async () => {
    const j = journal(3);
    for (let i = 0; i < 5; i++) {
      await j.record({ kind: 'update', author: caller('ann', `r${i}`), before: doc(`d${i}`), after: doc(`d${i}`) });
    }
    expect((await log.newest(10)).map((t) => t.objects[0].uid)).toEqual(['d4', 'd3', 'd2']);
  });

  it(`marks a request that wrote more than ${MAX_OBJECTS} objects incomplete, holding no more`, async () => {
    const j = journal(10);
    for (let i = 0; i <= MAX_OBJECTS; i++) {
      await j.record({ kind: 'update', author: caller('ann', 'big'), before: doc(`d${i}`), after: doc(`d${i}`) });
    }
    const [transaction] = await log.newest(1);
    expect(transaction.objects).toHaveLength(MAX_OBJECTS);
    expect(transaction.incomplete).toBe(true);
  });
});
