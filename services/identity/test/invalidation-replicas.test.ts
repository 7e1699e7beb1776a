/** Invalidations across identity replicas: each replica's hub joined to the others over the bus. */
import { createLogger, type EventBus } from '@cms/shared';
import { createInProcessBus } from '@cms/shared/adapters';
import { pollUntil } from '../../../test/support/poll';
import {
  InvalidationHub,
  type Invalidation,
  type InvalidationReplicas,
  type InvalidationSink,
} from '../src/domain/invalidations';
import { broadcastInvalidations, INVALIDATION_TOPIC } from '../src/events/invalidation-broadcast';

const logger = createLogger('identity-test', 'silent');
const until = (check: () => boolean, description: string) => pollUntil(check, 3000, { intervalMs: 5, description });

/** A watch stream as the hub sees it, recording what it was given. */
function recordingSink() {
  const state = { written: [] as Invalidation[], ended: false, aborted: '' };
  const sink: InvalidationSink = {
    write: async (invalidation) => void state.written.push(invalidation),
    end: () => void (state.ended = true),
    abort: (reason) => void (state.aborted = reason),
  };
  return { sink, state };
}

describe('InvalidationHub across replicas', () => {
  let bus: EventBus;

  beforeEach(() => {
    // One bus for both: it stands for the broker the replicas share.
    bus = createInProcessBus({ topology: [], logger });
  });

  afterEach(() => bus.close());

  it("reaches the streams and listeners of the other replica, and each replica's own only once", async () => {
    const [a, b] = [new InvalidationHub(logger), new InvalidationHub(logger)];
    await broadcastInvalidations(a, bus, logger);
    await broadcastInvalidations(b, bus, logger);
    const [watchingA, watchingB] = [recordingSink(), recordingSink()];
    a.attach(watchingA.sink);
    b.attach(watchingB.sink);
    const heardByA: Invalidation[] = [];
    const heardByB: Invalidation[] = [];
    a.onInvalidation((invalidation) => heardByA.push(invalidation));
    b.onInvalidation((invalidation) => heardByB.push(invalidation));

    await a.tokenRevoked('jti-1');
    await b.userChanged('jane');
    await a.allChanged();
    const all = [{ token_id: 'jti-1' }, { user_id: 'jane' }, { all: true }];
    await until(() => watchingA.state.written.length === 3 && watchingB.state.written.length === 3, 'both streams');
    // Each stream has each once; another replica's may come after this one's later own (order does not matter).
    const sorted = (list: Invalidation[]) => list.map((item) => JSON.stringify(item)).sort();
    expect(sorted(watchingA.state.written)).toEqual(sorted(all));
    expect(sorted(watchingB.state.written)).toEqual(sorted(all));
    // Delivered to the replica's own listeners at once, not a second time from its own broadcast.
    await until(() => heardByA.length === 3 && heardByB.length === 3, 'both listeners');
    expect(sorted(heardByA)).toEqual(sorted(all));
    expect(sorted(heardByB)).toEqual(sorted(all));
  });

  it('takes a broadcast it cannot read for "everything changed", the safe reading', async () => {
    const hub = new InvalidationHub(logger);
    await broadcastInvalidations(hub, bus, logger);
    const watching = recordingSink();
    hub.attach(watching.sink);
    // Not a cms.identity.v1.Invalidation: a field 1 of wire type 7, which protobuf does not have.
    await bus.broadcast(INVALIDATION_TOPIC, Buffer.from([0x0f, 0xff, 0xff]), 'another-replica');
    await until(() => watching.state.written.length === 1, 'the invalidation');
    expect(watching.state.written).toEqual([{ all: true }]);
  });

  it('cuts its streams off and refuses new ones while it cannot hear the other replicas', async () => {
    const hub = new InvalidationHub(logger);
    let live = true;
    hub.connectReplicas({
      get live() {
        return live;
      },
      send: async () => undefined,
    });
    const open = recordingSink();
    hub.attach(open.sink);
    expect(hub.accepting).toBe(true);

    live = false;
    hub.replicasLive(false);
    expect(open.state.aborted).toMatch(/other replicas/);
    expect(hub.accepting).toBe(false);
    const refused = recordingSink();
    hub.attach(refused.sink);
    expect(refused.state.aborted).toMatch(/other replicas/);

    live = true;
    hub.replicasLive(true);
    const reopened = recordingSink();
    hub.attach(reopened.sink);
    expect(reopened.state.aborted).toBe('');
    await hub.userChanged('jane');
    expect(reopened.state.written).toEqual([{ user_id: 'jane' }]);
  });

  it('sends `all` once the other replicas can be reached after a send failed', async () => {
    const hub = new InvalidationHub(logger);
    const sent: Invalidation[] = [];
    let reachable = false;
    const replicas: InvalidationReplicas = {
      live: true,
      send: async (invalidation) => {
        if (!reachable) throw new Error('broker down');
        sent.push(invalidation);
      },
    };
    hub.connectReplicas(replicas);
    const watching = recordingSink();
    hub.attach(watching.sink);

    // The local stream has it at once; the other replicas could not be told.
    await hub.tokenRevoked('jti-2');
    expect(watching.state.written).toEqual([{ token_id: 'jti-2' }]);
    expect(sent).toEqual([]);

    reachable = true;
    hub.replicasLive(true);
    await until(() => sent.length === 1, 'the resend');
    expect(sent).toEqual([{ all: true }]);
    hub.close();
  });
});
