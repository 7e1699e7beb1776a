import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, createLogger, type ContentSnapshot, type DocumentStore, type DomainEvent } from '@cms/shared';
import { openEmbeddedStore } from '@cms/shared/adapters';
import { RuleAssignments } from '../src/domain/rule-assignments';
import { applicableAssignments, markerOf, ruleRequestId, triggerOf } from '../src/domain/rule-matching';
import {
  CLAIM_LEASE_MS,
  RuleRunner,
  type ContentActions,
  type ContentObjects,
  type RuleContentAction,
} from '../src/domain/rule-runner';
import { RuleBook } from '../src/domain/rules';
import { recordExecutions, type RulesConsumerDeps } from '../src/events/rules-consumer';
import { StoreRuleExecutions } from '../src/store/rule-executions';
import { StoreRules } from '../src/store/rules';

/** The rules consumer and runner over a real embedded store, with content replaced by a recording fake. */

const FOLDER_UID = 'f'.repeat(32);
const DOC_UID = 'd'.repeat(32);

function snapshot(path: string, uid: string, extra: Partial<ContentSnapshot> = {}): ContentSnapshot {
  return {
    uid,
    path,
    id: path.split('/').pop() ?? '',
    portal_type: 'Document',
    review_state: 'published',
    version: 2,
    creators: ['ed'],
    ...extra,
  } as ContentSnapshot;
}

let n = 0;
function published(requestId?: string): DomainEvent {
  return {
    id: `event-${++n}`,
    type: 'content.modified',
    occurredAt: new Date().toISOString(),
    ...(requestId === undefined ? {} : { requestId }),
    payload: { uid: DOC_UID, version: 2, changed: ['review_state'], snapshot: snapshot('/x/doc', DOC_UID) },
  } as DomainEvent;
}

/** Content that answers look-ups of /x and records the actions it is asked to take. */
class FakeContent implements ContentObjects, ContentActions {
  applied: { action: RuleContentAction; requestId: string }[] = [];

  byPath(path: string) {
    return Promise.resolve(path === '/x' ? snapshot('/x', FOLDER_UID, { portal_type: 'Folder' }) : null);
  }
  byUid(uid: string) {
    return Promise.resolve(uid === DOC_UID ? snapshot('/x/doc', DOC_UID) : null);
  }
  apply(action: RuleContentAction, requestId: string) {
    this.applied.push({ action, requestId });
    return Promise.resolve('/y/doc');
  }
}

describe('content rules: consumer and runner', () => {
  let dataDir: string;
  let store: DocumentStore;
  let rules: StoreRules;
  let executions: StoreRuleExecutions;
  let content: FakeContent;
  let runner: RuleRunner;
  let deps: RulesConsumerDeps;
  let ruleId: string;
  const log = createLogger('config-test', 'silent');

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'config-rules-'));
    store = await openEmbeddedStore(dataDir);
    rules = new StoreRules(store);
    executions = new StoreRuleExecutions(store);
    await executions.ensureIndexes();
    content = new FakeContent();
    runner = new RuleRunner(executions, content, executions, log);
    deps = { rules, executions, content, runner, log };
    const book = new RuleBook(rules);
    const rule = await book.create({
      title: 'Publish moves',
      description: '',
      event: 'Workflow state changed',
      enabled: true,
      cascading: false,
      stop: false,
    });
    ruleId = rule._id;
    await book.addElement(ruleId, 'condition', { type: 'cms.conditions.WorkflowState', wf_states: ['published'] });
    await book.addElement(ruleId, 'action', { type: 'cms.actions.Move', target_folder: '/y' });
    await book.addElement(ruleId, 'action', { type: 'cms.actions.Notify', message: 'Moved', message_type: 'info' });
    await book.addElement(ruleId, 'action', { type: 'cms.actions.Workflow', transition: 'retract' });
    await new RuleAssignments(rules).assign({ key: FOLDER_UID, path: '/x' }, ruleId);
  });
  afterEach(async () => {
    await runner.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two runners on one store (two replicas) take the actions of one execution once', async () => {
    // The second replica's runner, on the same store, with content recording for both.
    const other = new RuleRunner(executions, content, executions, log);
    try {
      expect(await recordExecutions(published(), deps)).toBe(1);
      runner.kick();
      other.kick();
      await Promise.all([runner.idle(), other.idle()]);
      expect(content.applied.map((a) => a.action.action)).toEqual(['move', 'transition']);
    } finally {
      await other.stop();
    }
  });

  it('a runner passes over an execution another holds, until that claim runs out', async () => {
    expect(await recordExecutions(published(), deps)).toBe(1);
    const [pending] = await executions.pending(10, 'replica-b', Date.now());
    expect(await executions.claim(pending!._id, 'replica-b', Date.now(), 60_000)).not.toBeNull();
    runner.kick();
    await runner.idle();
    expect(content.applied).toEqual([]);
    // The holder died: its claim, once run out, is taken over.
    expect(await executions.claim(pending!._id, 'replica-b', Date.now() - 120_000, 60_000)).not.toBeNull();
    runner.kick();
    await runner.idle();
    expect(content.applied.map((a) => a.action.action)).toEqual(['move', 'transition']);
  });

  it('a redelivered event records nothing more and repeats no action', async () => {
    const event = published();
    expect(await recordExecutions(event, deps)).toBe(1);
    expect(await recordExecutions(event, deps)).toBe(0);
    runner.kick();
    await runner.idle();
    expect(await recordExecutions(event, deps)).toBe(0);
    runner.kick();
    await runner.idle();
    expect(content.applied.map((a) => a.action.action)).toEqual(['move', 'transition']);
    expect(content.applied[0]!.action).toEqual({ uid: DOC_UID, action: 'move', target: '/y', key: expect.any(String) });
    expect(await executions.listNotifications()).toEqual([expect.objectContaining({ message: 'Moved', uid: DOC_UID })]);

    // Finished executions are forgotten after a week (the runner purges them); only then would it run again.
    expect(await executions.purge('2000-01-01T00:00:00.000Z')).toBe(0);
    expect(await executions.purge('2999-01-01T00:00:00.000Z')).toBe(1);
    expect(await recordExecutions(event, deps)).toBe(1);
  });

  it('keeps its claim alive while an action outlasts the lease, and names each action to content by a key', async () => {
    // Only the runner's renewal timer and the clock are fake; the store's I/O runs for real.
    jest.useFakeTimers({
      doNotFake: ['setImmediate', 'setTimeout', 'clearTimeout', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'],
      now: Date.now(),
    });
    try {
      const event = published();
      await recordExecutions(event, deps);
      const id = `${ruleId}~${event.id}`;
      let release!: () => void;
      const moveHeld = new Promise<void>((resolve) => (release = resolve));
      const apply = content.apply.bind(content);
      let moving = false;
      content.apply = async (action, requestId) => {
        if (action.action === 'move') {
          moving = true;
          await moveHeld;
        }
        return apply(action, requestId);
      };
      // Counts the claims the runner has made and seen answered (the first, then each renewal).
      const claim = executions.claim.bind(executions);
      let claims = 0;
      executions.claim = async (...args) => {
        const held = await claim(...args);
        claims++;
        return held;
      };
      runner.kick();
      await until(() => moving);
      // Two leases pass while the move is under way; the runner renews its claim every third of one.
      for (let renewal = 1; renewal <= 6; renewal++) {
        await jest.advanceTimersByTimeAsync(CLAIM_LEASE_MS / 3);
        await until(() => claims === 1 + renewal);
      }
      expect((await executions.get(id))?.claimed_until).toBe(Date.now() + CLAIM_LEASE_MS);
      expect(await executions.claim(id, 'replica-b', Date.now(), CLAIM_LEASE_MS)).toBeNull();
      release();
      await runner.idle();
      expect(content.applied.map((a) => [a.action.action, a.action.key])).toEqual([
        ['move', `${id}#0`],
        ['transition', `${id}#2`],
      ]);
      // Released: without renewals, the claim runs out one lease later and another runner could take it.
      expect((await executions.get(id))?.done).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks again for an action whose answer it never got under the same key (content takes it once)', async () => {
    await recordExecutions(published(), deps);
    const apply = content.apply.bind(content);
    let calls = 0;
    content.apply = async (action, requestId) => {
      const answer = await apply(action, requestId);
      // The first call is taken but its answer is lost (content went away before answering).
      if (++calls === 1) throw new Error('connection reset');
      return answer;
    };
    runner.kick();
    await runner.idle();
    runner.kick();
    await runner.idle();
    const keys = content.applied.map((a) => a.action.key);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('after a failed call, the execution resumes at the action that failed, without repeating the ones before', async () => {
    await recordExecutions(published(), deps);
    // The move succeeds; the transition (third action) fails once, as if content had gone away mid-stream.
    const apply = content.apply.bind(content);
    let calls = 0;
    content.apply = (action, requestId) => {
      calls++;
      if (calls === 2) return Promise.reject(new Error('content is unavailable'));
      return apply(action, requestId);
    };
    runner.kick();
    await runner.idle();
    expect(content.applied.map((a) => a.action.action)).toEqual(['move']);
    runner.kick();
    await runner.idle();
    expect(content.applied.map((a) => a.action.action)).toEqual(['move', 'transition']);
    expect((await executions.pending(10)).length).toBe(0);
  });

  it('an event caused by a rule action triggers no rule, unless that rule cascades (and never itself)', async () => {
    const marker = ruleRequestId({ depth: 1, ruleId }, 'event-0');
    expect(markerOf(marker)).toEqual({ depth: 1, ruleId });
    expect(await recordExecutions(published(marker), deps)).toBe(0);
    // A request id a client may send (the gateway refuses `~`) is not a marker.
    expect(markerOf('rule:1:rule-1:x')).toBeNull();
    expect(await recordExecutions(published('rule:1:rule-1:x'), deps)).toBe(1);

    const book = new RuleBook(rules);
    const cascading = await book.create({
      title: 'Cascades',
      description: '',
      event: 'Object modified',
      enabled: true,
      cascading: true,
      stop: false,
    });
    expect(await recordExecutions(published(ruleRequestId({ depth: 1, ruleId: cascading._id }, 'e')), deps)).toBe(1);
    await book.update(ruleId, { cascading: true });
    expect(await recordExecutions(published(ruleRequestId({ depth: 1, ruleId }, 'e')), deps)).toBe(0);
    // Past the depth limit, even a cascading rule's effects trigger nothing.
    expect(await recordExecutions(published(ruleRequestId({ depth: 3, ruleId: cascading._id }, 'e')), deps)).toBe(0);
  });

  it('an action that cannot be taken ends the execution; the rest of the rule does not run', async () => {
    content.apply = () => Promise.reject(new AppError('BadRequest', 'The target folder /y does not exist'));
    await recordExecutions(published(), deps);
    runner.kick();
    await runner.idle();
    expect(await executions.pending(10)).toEqual([]);
    expect(await executions.listNotifications()).toEqual([]);
  });

  it('a content event content does not bear out triggers nothing (forged: no action on a real object)', async () => {
    const event = published();
    const payload = event.payload as Extract<DomainEvent, { type: 'content.modified' }>['payload'];
    const forgeries: DomainEvent[] = [
      // An object content does not have.
      { ...event, id: 'forged-1', payload: { ...payload, uid: 'e'.repeat(32) } } as DomainEvent,
      // A real object said to be in the ruled folder under another name.
      {
        ...event,
        id: 'forged-2',
        payload: { ...payload, snapshot: snapshot('/x/other', DOC_UID) },
      } as DomainEvent,
      // A version content has not reached.
      { ...event, id: 'forged-3', payload: { ...payload, version: 99 } } as DomainEvent,
      // Another type than content's.
      {
        ...event,
        id: 'forged-4',
        payload: { ...payload, snapshot: snapshot('/x/doc', DOC_UID, { portal_type: 'News Item' }) },
      } as DomainEvent,
    ];
    for (const forged of forgeries)
      expect({ id: forged.id, added: await recordExecutions(forged, deps) }).toEqual({
        id: forged.id,
        added: 0,
      });
    // What content bears out still triggers the rule.
    expect(await recordExecutions(published(), deps)).toBe(1);
  });

  it('matches only the assigned folder, and the folders above with bubbles', async () => {
    const here = { _id: 'a', path: '/a/b', rules: [{ id: 'r1', enabled: true, bubbles: false }] };
    const above = {
      _id: 'b',
      path: '/a',
      rules: [
        { id: 'r2', enabled: true, bubbles: false },
        { id: 'r3', enabled: true, bubbles: true },
        { id: 'r4', enabled: false, bubbles: true },
      ],
    };
    expect(applicableAssignments([here, above]).map((a) => a.id)).toEqual(['r1', 'r3']);
    const moved = {
      id: 'e',
      type: 'content.moved',
      occurredAt: '',
      payload: {
        uid: DOC_UID,
        version: 3,
        old_path: '/a/doc',
        new_path: '/b/doc',
        old_parent_uid: FOLDER_UID,
        new_parent_uid: FOLDER_UID,
        snapshot: snapshot('/b/doc', DOC_UID),
      },
    } as DomainEvent;
    // A descendant that followed its moved folder (same parent, same id) was not moved itself.
    expect(triggerOf(moved)).toBeNull();
  });
});

/** Waits (real time, bounded by a count, not asserted) until `done` holds. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the condition did not come true');
}
