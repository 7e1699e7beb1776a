/**
 * Read-your-writes, honestly (read-your-writes.ts): a search is current only when every producer has published
 * what it committed and the catalog has applied what was published; otherwise it says how far behind it may be.
 */
import type { PublishBacklog, PublishBacklogClient } from '@cms/shared';
import pino from 'pino';
import { pollUntil } from '../../../test/support/poll';
import { ReadYourWrites, freshnessHeaders } from '../src/api/read-your-writes';

const silent = pino({ level: 'silent' });
const PUBLISHED: PublishBacklog = { published: true, pending: 0, oldestAgeMs: 0, disconnected: false };

/** A producer answering `AwaitPublished` with `backlog`, or failing with `error`; counts the questions. */
function producer(answer: PublishBacklog | Error) {
  const asked: number[] = [];
  const client: PublishBacklogClient = {
    AwaitPublished: (request, _md, _options, callback) => {
      asked.push(request.timeout_ms ?? 0);
      if (answer instanceof Error)
        callback(Object.assign(answer, { code: 14, details: answer.message, metadata: undefined as never }));
      else
        callback(null, {
          published: answer.published,
          pending: answer.pending,
          oldest_age_ms: answer.oldestAgeMs,
          disconnected: answer.disconnected,
        });
      return undefined;
    },
  };
  return { client: () => client, asked };
}

function readYourWrites(content: PublishBacklog | Error, drained: boolean, now = () => 1_000_000) {
  const discussion = producer(PUBLISHED);
  const contentProducer = producer(content);
  const check = new ReadYourWrites({
    events: { waitUntilDrained: async () => drained },
    producers: [
      { name: 'content', client: contentProducer.client },
      { name: 'discussion', client: discussion.client },
    ],
    timeoutMs: 2000,
    now,
  });
  return { check, contentAsked: contentProducer.asked };
}

describe('ReadYourWrites', () => {
  test('current when the producers have published and the catalog applied it: no header', async () => {
    const { check, contentAsked } = readYourWrites(PUBLISHED, true);
    const freshness = await check.check('r1', silent);
    expect(freshness).toEqual({ current: true });
    expect(freshnessHeaders(freshness)).toEqual({});
    // The producer may wait for its confirms, within the search's own bound.
    expect(contentAsked).toEqual([1000]);
  });

  test("content's events waiting in its outbox (its broker link down): behind by their age, though drained", async () => {
    const warnings: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const { check } = readYourWrites({ published: false, pending: 286, oldestAgeMs: 12_300, disconnected: true }, true);
    const freshness = await check.check('r2', log);
    expect(freshness).toMatchObject({ current: false, lagMs: 12_300 });
    expect(freshnessHeaders(freshness)).toEqual({ 'X-Search-Lag': '13', 'Cache-Control': 'no-store' });
    expect(warnings).toEqual([
      expect.objectContaining({
        requestId: 'r2',
        lagMs: 12_300,
        behind: ["content: 286 objects' events unpublished (its broker link is down)"],
      }),
    ]);
  });

  test("search's own link down: behind since it last knew itself current", async () => {
    let now = 1_000_000;
    let drained = true;
    const check = new ReadYourWrites({
      events: { waitUntilDrained: async () => drained },
      producers: [{ name: 'content', client: producer(PUBLISHED).client }],
      timeoutMs: 2000,
      now: () => now,
    });
    expect(await check.check('r3', silent)).toEqual({ current: true });
    now += 45_000;
    drained = false;
    expect(await check.check('r4', silent)).toMatchObject({ current: false, lagMs: 45_000 });
  });

  test('a producer that does not answer counts as behind, never as current', async () => {
    const { check } = readYourWrites(new Error('connect ECONNREFUSED'), true);
    const freshness = await check.check('r5', silent);
    expect(freshness).toMatchObject({ current: false });
    expect(freshnessHeaders(freshness)['X-Search-Lag']).toBe('1');
  });

  test('callers that come during a round share the next one, which starts after they came', async () => {
    const answers: (() => void)[] = [];
    const asked: string[] = [];
    const client: PublishBacklogClient = {
      AwaitPublished: (_request, metadata, _options, callback) => {
        asked.push(String(metadata.get('x-request-id')[0]));
        answers.push(() => callback(null, { published: true, pending: 0, oldest_age_ms: 0, disconnected: false }));
        return undefined;
      },
    };
    const check = new ReadYourWrites({
      events: { waitUntilDrained: async () => true },
      producers: [{ name: 'content', client: () => client }],
      timeoutMs: 2000,
    });
    const settled: string[] = [];
    const first = check.check('r6', silent).then(() => settled.push('r6'));
    const later = ['r7', 'r8'].map((id) => check.check(id, silent).then(() => settled.push(id)));
    await pollUntil(() => answers.length === 1, 1000, { description: 'the first round asked' });
    // The round under way started before r7 and r8 came: it answers r6 alone, then one round serves both.
    expect(asked).toEqual(['r6']);
    answers[0]!();
    await first;
    await pollUntil(() => answers.length === 2, 1000, { description: 'the shared round asked' });
    expect(settled).toEqual(['r6']);
    expect(asked).toEqual(['r6', 'r7']);
    answers[1]!();
    await Promise.all(later);
    expect(settled).toEqual(['r6', 'r7', 'r8']);
    // A caller after the rounds ended starts its own.
    const last = check.check('r9', silent);
    await pollUntil(() => answers.length === 3, 1000, { description: 'a round of its own' });
    answers[2]!();
    expect(await last).toEqual({ current: true });
  });

  test('a caller waiting for the round after the one under way is still answered within its timeout', async () => {
    const asked: string[] = [];
    // The first round's question is never answered (a producer that hangs past its own deadline).
    const client: PublishBacklogClient = {
      AwaitPublished: (_request, metadata) => {
        asked.push(String(metadata.get('x-request-id')[0]));
        return undefined;
      },
    };
    const check = new ReadYourWrites({
      events: { waitUntilDrained: async () => true },
      producers: [{ name: 'content', client: () => client }],
      timeoutMs: 50,
    });
    void check.check('r10', silent);
    await pollUntil(() => asked.length === 1, 1000, { description: 'the first round asked' });
    const later = await check.check('r11', silent);
    expect(later).toMatchObject({
      current: false,
      behind: ['search: the check it waited for did not end within READ_YOUR_WRITES_TIMEOUT_MS'],
    });
    expect(freshnessHeaders(later)['X-Search-Lag']).toBeDefined();
    // Its own round never started: the one under way has not ended.
    expect(asked).toEqual(['r10']);
  });
});
