import { ChangeFeed, type ChangePush } from '../src/events/change-feed';
import { createLogger } from '@cms/shared';
import {
  ALIVE_MS,
  aloneOnStore,
  BEAT_MS,
  LostReplicaWork,
  ReplicaMembership,
  type ReplicaRecord,
  type ReplicaRegistry,
} from '../src/events/replica-membership';

const silentLog = createLogger('replica-membership-test', 'silent');

/** The shared store's `content_replicas`, in memory; `failing` makes every call fail (the store away). */
class MemoryRegistry implements ReplicaRegistry {
  readonly records = new Map<string, ReplicaRecord>();
  failing = false;
  async beat(record: ReplicaRecord) {
    this.check();
    this.records.set(record._id, { ...record, knows: [...record.knows] });
  }
  async alive(now: number) {
    this.check();
    return [...this.records.values()].filter((r) => r.alive_until > now);
  }
  async recent(since: number) {
    this.check();
    return [...this.records.values()].filter((r) => r.alive_until > since);
  }
  async remove(epoch: string) {
    this.check();
    this.records.delete(epoch);
  }
  async purge(before: number) {
    for (const [id, r] of this.records) if (r.alive_until < before) this.records.delete(id);
  }
  private check() {
    if (this.failing) throw new Error('store unavailable');
  }
}

/** A content process: its feed with one gateway subscribed (acking every push at once), and its membership. */
function replica(registry: MemoryRegistry, address: string, lost: string[][] = []) {
  const feed = new ChangeFeed({ now: () => Date.now() });
  const pushes: ChangePush[] = [];
  const subscription = feed.subscribe({
    send: (push) => {
      pushes.push(push);
      if (!push.heartbeat) void Promise.resolve().then(() => subscription.acked(push.seq));
    },
    cut: () => undefined,
  });
  const membership = new ReplicaMembership({ epoch: feed.epoch, address }, feed, registry, {
    now: () => Date.now(),
    onLost: (epochs) => lost.push(epochs),
  });
  const told = () => pushes.filter((p) => p.replicas.length > 0).map((p) => p.replicas.map((r) => r.address));
  return { feed, membership, told };
}

async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await jest.advanceTimersByTimeAsync(0);
  return done;
}

describe('content replica membership', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('announces a lone replica at its first beat and tells its gateways it is the only one', async () => {
    const registry = new MemoryRegistry();
    const x = replica(registry, 'x:1');
    await x.membership.start();
    expect(x.membership.announced).toBe(true);
    expect(await settled(x.membership.whenAnnounced())).toBe(true);
    expect(x.told()).toEqual([['x:1']]);
    await x.membership.stop();
    expect(registry.records.size).toBe(0);
  });

  it("holds a newcomer's writes until every live replica has told its gateways of it", async () => {
    const registry = new MemoryRegistry();
    const x = replica(registry, 'x:1');
    await x.membership.start();
    const z = replica(registry, 'z:1');
    await z.membership.start();
    // Z knows X, but X's gateways have not been told of Z yet: Z's writes wait.
    expect(z.membership.announced).toBe(false);
    const write = z.membership.whenAnnounced();
    expect(await settled(write)).toBe(false);
    // X's next beat tells its gateways, and records that they know Z; Z's next beat sees it.
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(x.told().at(-1)?.sort()).toEqual(['x:1', 'z:1']);
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(z.membership.announced).toBe(true);
    expect(await settled(write)).toBe(true);
    await x.membership.stop();
    await z.membership.stop();
  });

  it('stops counting itself announced when it cannot renew its record, before the others drop it', async () => {
    const registry = new MemoryRegistry();
    const x = replica(registry, 'x:1');
    await x.membership.start();
    expect(x.membership.announced).toBe(true);
    registry.failing = true;
    await jest.advanceTimersByTimeAsync(ALIVE_MS - 1);
    // Its record is still alive for the others, but it no longer counts on it.
    expect(x.membership.announced).toBe(false);
    registry.failing = false;
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(x.membership.announced).toBe(true);
    await x.membership.stop();
  });

  it('tells the gateways when a replica is gone, once its record has expired', async () => {
    const registry = new MemoryRegistry();
    const x = replica(registry, 'x:1');
    const z = replica(registry, 'z:1');
    await x.membership.start();
    await z.membership.start();
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(x.told().at(-1)?.sort()).toEqual(['x:1', 'z:1']);
    // Z killed: it neither beats nor removes its record.
    await z.membership.stop().catch(() => undefined);
    registry.records.set(z.feed.epoch, {
      _id: z.feed.epoch,
      address: 'z:1',
      alive_until: Date.now() + 2_000,
      knows: [],
    });
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(x.told().at(-1)?.sort()).toEqual(['x:1', 'z:1']);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(x.told().at(-1)).toEqual(['x:1']);
    await x.membership.stop();
  });
});

describe('lost replicas (their unfinished work is taken over at once)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('tells of a replica whose record expired unremoved, once, and never of one that left in order', async () => {
    const registry = new MemoryRegistry();
    const lost: string[][] = [];
    const x = replica(registry, 'x:1', lost);
    const killed = replica(registry, 'z:1');
    const leaving = replica(registry, 'y:1');
    for (const r of [x, killed, leaving]) await r.membership.start();
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    await leaving.membership.stop();
    // Killed: it stops beating and leaves its record to expire.
    const record = registry.records.get(killed.feed.epoch)!;
    await killed.membership.stop().catch(() => undefined);
    registry.records.set(killed.feed.epoch, record);
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(lost).toEqual([]);
    await jest.advanceTimersByTimeAsync(ALIVE_MS + BEAT_MS);
    expect(lost).toEqual([[killed.feed.epoch]]);
    await jest.advanceTimersByTimeAsync(10 * BEAT_MS);
    expect(lost).toEqual([[killed.feed.epoch]]);
    await x.membership.stop();
  });

  it("tells at its first beat of this address's previous life, which a restart in place leaves", async () => {
    const registry = new MemoryRegistry();
    await registry.beat({ _id: 'previous', address: 'x:1', alive_until: Date.now() + ALIVE_MS, knows: [] });
    await registry.beat({ _id: 'other', address: 'y:1', alive_until: Date.now() + ALIVE_MS, knows: [] });
    const lost: string[][] = [];
    const x = replica(registry, 'x:1', lost);
    await x.membership.start();
    expect(lost).toEqual([['previous']]);
    await x.membership.stop();
  });
});

describe('LostReplicaWork', () => {
  it('keeps what it is told until its handler is ready, then takes it over one batch at a time', async () => {
    const work = new LostReplicaWork();
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    work.lost(['a']);
    work.handleWith(async (epochs) => {
      batches.push(epochs);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, silentLog);
    work.lost(['b']);
    work.lost(['c']);
    expect(batches).toEqual([['a']]);
    release();
    for (let i = 0; i < 20 && batches.length < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a'], ['b', 'c']]);
    await work.stop();
    work.lost(['d']);
    expect(batches).toHaveLength(2);
  });
});

describe('aloneOnStore (start-up after a crash)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const record = (id: string, address: string): ReplicaRecord => ({
    _id: id,
    address,
    alive_until: Date.now() + ALIVE_MS,
    knows: [],
  });
  const clock = { now: () => Date.now() };

  test("alone when the only other record is this address's previous life, without waiting for it to expire", async () => {
    const registry = new MemoryRegistry();
    await registry.beat(record('killed', 'content:50051'));
    await registry.beat(record('self', 'content:50051'));
    expect(await settled(aloneOnStore(registry, { epoch: 'self', address: 'content:50051' }, clock))).toBe(true);
  });

  test('not alone while another replica renews its record', async () => {
    const registry = new MemoryRegistry();
    await registry.beat(record('other', 'content-b:50051'));
    const answer = aloneOnStore(registry, { epoch: 'self', address: 'content:50051' }, clock);
    await jest.advanceTimersByTimeAsync(BEAT_MS / 2);
    await registry.beat(record('other', 'content-b:50051'));
    await jest.advanceTimersByTimeAsync(BEAT_MS);
    expect(await answer).toBe(false);
  });

  test("alone once another address's record expires unrenewed (a replica killed elsewhere)", async () => {
    const registry = new MemoryRegistry();
    await registry.beat(record('gone', 'content-b:50051'));
    const answer = aloneOnStore(registry, { epoch: 'self', address: undefined }, clock);
    await jest.advanceTimersByTimeAsync(ALIVE_MS - BEAT_MS);
    expect(await settled(answer)).toBe(false);
    await jest.advanceTimersByTimeAsync(2 * BEAT_MS);
    expect(await answer).toBe(true);
  });
});
