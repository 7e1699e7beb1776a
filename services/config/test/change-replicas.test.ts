/** Record and type changes across config replicas on one store: each replica's RecordChanges joined over the bus. */
import { createLogger, type EventBus } from '@cms/shared';
import { createInProcessBus } from '@cms/shared/adapters';
import { pollUntil } from '../../../test/support/poll';
import { RecordChanges, type ChangeReplicas, type ChangeSink } from '../src/domain/changes';
import { broadcastChanges, CHANGE_TOPICS } from '../src/events/changes-broadcast';

const logger = createLogger('config-test', 'silent');
const until = (check: () => boolean, description: string) => pollUntil(check, 3000, { intervalMs: 5, description });

/** A watch stream as RecordChanges sees it, recording what it was given. */
function recordingSink() {
  const state = { names: [] as string[], ended: false };
  const sink: ChangeSink = {
    changed: (names) => void state.names.push(...names),
    end: () => void (state.ended = true),
  };
  return { sink, state };
}

describe('RecordChanges across config replicas', () => {
  let bus: EventBus;

  beforeEach(() => {
    // One bus for both: it stands for the broker the replicas share.
    bus = createInProcessBus({ topology: [], logger });
  });

  afterEach(() => bus.close());

  it("reaches the streams of the other replica, each replica's own once, and only on its own topic", async () => {
    const [a, b, types] = [new RecordChanges(logger), new RecordChanges(logger), new RecordChanges(logger)];
    await broadcastChanges(a, CHANGE_TOPICS.records, bus, logger);
    await broadcastChanges(b, CHANGE_TOPICS.records, bus, logger);
    await broadcastChanges(types, CHANGE_TOPICS.types, bus, logger);
    const [watchingA, watchingB, watchingTypes] = [recordingSink(), recordingSink(), recordingSink()];
    a.attach(watchingA.sink);
    b.attach(watchingB.sink);
    types.attach(watchingTypes.sink);

    await a.publish(['cms.site_title']);
    // The writer's own stream has it before the write is answered.
    expect(watchingA.state.names).toEqual(['cms.site_title']);
    await b.publish(['cms.a', 'cms.b']);
    await until(() => watchingA.state.names.length === 3 && watchingB.state.names.length === 3, 'both streams');
    expect([...watchingA.state.names].sort()).toEqual(['cms.a', 'cms.b', 'cms.site_title']);
    expect([...watchingB.state.names].sort()).toEqual(['cms.a', 'cms.b', 'cms.site_title']);
    await types.publish(['Document']);
    await until(() => watchingTypes.state.names.length === 1, 'the types stream');
    // Another topic's change is no record change.
    expect(watchingA.state.names).not.toContain('Document');
  });

  it('ends every stream on a broadcast it cannot read: no cache may trust what it holds', async () => {
    const changes = new RecordChanges(logger);
    await broadcastChanges(changes, CHANGE_TOPICS.records, bus, logger);
    const watching = recordingSink();
    changes.attach(watching.sink);
    // Not a cms.config.v1.RecordsChanged: field 1 with wire type 7, which protobuf does not have.
    await bus.broadcast(CHANGE_TOPICS.records, Buffer.from([0x0f, 0xff, 0xff]), 'another-replica');
    await until(() => watching.state.ended, 'the stream to end');
    expect(watching.state.names).toEqual([]);
  });

  it('ends its streams and refuses new ones while it cannot hear the other replicas', async () => {
    const changes = new RecordChanges(logger);
    let live = true;
    changes.connectReplicas({
      get live() {
        return live;
      },
      send: async () => undefined,
    });
    const open = recordingSink();
    changes.attach(open.sink);
    expect(changes.accepting).toBe(true);

    live = false;
    changes.replicasLive(false);
    expect(open.state.ended).toBe(true);
    expect(changes.accepting).toBe(false);
    const refused = recordingSink();
    changes.attach(refused.sink);
    expect(refused.state.ended).toBe(true);
    expect(changes.watchers).toBe(0);

    live = true;
    changes.replicasLive(true);
    const reopened = recordingSink();
    changes.attach(reopened.sink);
    expect(reopened.state.ended).toBe(false);
    await changes.publish(['cms.x']);
    expect(reopened.state.names).toEqual(['cms.x']);
  });

  it('sends again what the other replicas could not be told, once they can', async () => {
    const changes = new RecordChanges(logger);
    const sent: string[][] = [];
    let reachable = false;
    const replicas: ChangeReplicas = {
      live: true,
      send: async (names) => {
        if (!reachable) throw new Error('broker down');
        sent.push([...names]);
      },
    };
    changes.connectReplicas(replicas);
    const watching = recordingSink();
    changes.attach(watching.sink);

    // Never rejects: the write it follows is stored; the local stream has it at once.
    await expect(changes.publish(['cms.one'])).resolves.toBeUndefined();
    await changes.publish(['cms.two']);
    expect(watching.state.names).toEqual(['cms.one', 'cms.two']);
    expect(sent).toEqual([]);

    reachable = true;
    changes.replicasLive(true);
    await until(() => sent.length === 1, 'the resend');
    expect(sent[0].sort()).toEqual(['cms.one', 'cms.two']);
    changes.close();
  });
});
