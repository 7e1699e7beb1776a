import pino from 'pino';
import { createInProcessBus } from '../../src/adapters/bus/in-process-bus';
import type { EventBus } from '../../src/ports/bus';
import {
  guardEmbeddedReplicas,
  HEARTBEAT_TOPIC,
  type ReplicaGuard,
  storeServesReplicas,
} from '../../src/runtime/replica-guard';
import type { DocumentStore, StoreKind } from '../../src/ports/store';
import { pollUntil } from '../../../../test/support/poll';

const logger = pino({ level: 'silent' });
const GROUP = { group: 'guarded', patterns: ['content.#'] };

describe('replica guard', () => {
  let bus: EventBus;
  const guards: ReplicaGuard[] = [];
  const guard = async (service: 'search' | 'content', folder: string) => {
    const started = await guardEmbeddedReplicas({ service, folder, bus, logger, intervalMs: 20 });
    guards.push(started);
    return started;
  };

  beforeEach(() => {
    bus = createInProcessBus({ topology: [GROUP], logger });
  });
  afterEach(async () => {
    await Promise.all(guards.splice(0).map((g) => g.stop()));
    await bus.close();
  });

  it('takes two processes of one service on stores of their own out of readiness, and consumes no more', async () => {
    const a = await guard('search', '/data/a/search');
    await a.bus.subscribe(GROUP, async () => {});
    await expect(a.bus.ready()).resolves.toBeUndefined();

    const b = await guard('search', '/data/b/search');
    await pollUntil(
      async () => {
        const failures = await Promise.all([a.bus.ready(), b.bus.ready()].map((ready) => ready.then(() => '', String)));
        return failures.every((failure) => /replicas of search need a shared store engine/.test(failure));
      },
      5000,
      { description: 'both processes to report the other' },
    );
    // A subscription made now consumes nothing and never reports the group drained.
    const late = await b.bus.subscribe(GROUP, async () => {
      throw new Error('must not be called');
    });
    expect(await late.waitUntilDrained(100)).toBe(false);
  });

  it('leaves other services alone, and a process on the same store (its own earlier life)', async () => {
    const search = await guard('search', '/data/a/search');
    await guard('content', '/data/a/content');
    await guard('search', '/data/a/search');
    // Each has heard the others several times: still ready.
    const heard = new Map<string, number>();
    const listening = await bus.subscribeBroadcast(HEARTBEAT_TOPIC, ({ origin }) =>
      heard.set(origin, (heard.get(origin) ?? 0) + 1),
    );
    await pollUntil(() => heard.size === 3 && [...heard.values()].every((n) => n >= 5), 5000, {
      description: 'five heartbeats of each process',
    });
    await listening.stop();
    await expect(search.bus.ready()).resolves.toBeUndefined();
  });
});

describe('storeServesReplicas', () => {
  const storeOf = (kind: StoreKind) => ({ kind }) as DocumentStore;

  it('lets replicas share a server engine, not a store on one machine (embedded folder or SQLite file)', () => {
    expect(storeServesReplicas(storeOf('postgres'))).toBe(true);
    expect(storeServesReplicas(storeOf('mongodb'))).toBe(true);
    expect(storeServesReplicas(storeOf('embedded'))).toBe(false);
    expect(storeServesReplicas(storeOf('sqlite'))).toBe(false);
  });
});
