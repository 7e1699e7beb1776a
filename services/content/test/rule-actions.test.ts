import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { createLogger, type DocumentStore } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import type { ContentDeps } from '../src/api/declarations';
import { ruleActionRpcs } from '../src/api/rule-actions';
import { StoreAppliedRuleActions } from '../src/store/applied-rule-actions';

/**
 * `ApplyRuleAction` asked twice under one key (a rules runner that crashed after the action, before recording
 * it) takes the action once, over a real embedded store; the content commands are a recording fake.
 */

const DOC = { _id: 'd'.repeat(32), path: '/inbox/page', portal_type: 'Document' };
const FOLDER = { _id: 'f'.repeat(32), path: '/copies', portal_type: 'Folder' };

describe('ApplyRuleAction', () => {
  let dataDir: string;
  let store: DocumentStore;
  let copies: string[];
  let call: (request: Record<string, string>) => Promise<{ path: string }>;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'content-rule-actions-'));
    store = await openEmbeddedStore(dataDir);
    const applied = new StoreAppliedRuleActions(store);
    await applied.ensureIndexes();
    copies = [];
    const deps = {
      repo: {
        byUid: (uid: string) => Promise.resolve(uid === DOC._id ? DOC : uid === FOLDER._id ? FOLDER : null),
        byPath: (path: string) => Promise.resolve(path === FOLDER.path ? FOLDER : null),
      },
      tree: {
        copy: (target: { path: string }, uids: string[]) => {
          const path = `${target.path}/copy-${copies.length + 1}`;
          copies.push(...uids.map(() => path));
          return Promise.resolve([{ source: DOC.path, target: path }]);
        },
      },
    } as unknown as ContentDeps;
    const { ApplyRuleAction } = ruleActionRpcs(deps, applied, createLogger('content-test', 'silent'));
    call = (request) =>
      new Promise((resolve, reject) =>
        ApplyRuleAction(
          {
            request: { uid: '', action: '', target: '', transition: '', comment: '', action_key: '', ...request },
            metadata: new Metadata(),
          } as never,
          (error: ServiceError | null, answer?: { path: string }) => (error ? reject(error) : resolve(answer!)),
        ),
      );
  });
  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes an action asked for again under its key once, answering the first answer', async () => {
    const request = { uid: DOC._id, action: 'copy', target: '/copies', action_key: 'rule-1~event-1#0' };
    expect(await call(request)).toEqual({ path: '/copies/copy-1' });
    expect(await call(request)).toEqual({ path: '/copies/copy-1' });
    expect(copies).toEqual(['/copies/copy-1']);
    // Another action (or another event) has its own key.
    expect(await call({ ...request, action_key: 'rule-1~event-2#0' })).toEqual({ path: '/copies/copy-2' });
    expect(copies).toHaveLength(2);
  });

  it('remembers the key across a restart of content (the record is in the store)', async () => {
    const request = { uid: DOC._id, action: 'copy', target: FOLDER._id, action_key: 'rule-1~event-3#0' };
    await call(request);
    await store.close();
    store = await openEmbeddedStore(dataDir);
    const reopened = new StoreAppliedRuleActions(store);
    expect(await reopened.answerOf('rule-1~event-3#0')).toBe('/copies/copy-1');
  });

  it('without a key takes the action each time (no check asked for)', async () => {
    const request = { uid: DOC._id, action: 'copy', target: '/copies' };
    await call(request);
    await call(request);
    expect(copies).toHaveLength(2);
  });

  it('records nothing for an action that failed, so asking again takes it', async () => {
    const request = { uid: 'missing', action: 'copy', target: '/copies', action_key: 'rule-1~event-4#0' };
    await expect(call(request)).rejects.toMatchObject({ details: expect.stringContaining('No content') });
    await expect(call({ ...request, uid: DOC._id })).resolves.toEqual({ path: '/copies/copy-1' });
  });
});
