import { newEvent } from '@cms/shared';
import { ChangeFeed, type ChangePush, type ChangeSink } from '../src/events/change-feed';
import { purgeTargetsOf } from '../src/events/purge-consumer';

const LEASE = 2_000;
const ACK_TIMEOUT = 1_000;

/** A gateway's stream as the feed sees it: what it was sent, and whether it was cut off. */
function sink() {
  const pushes: ChangePush[] = [];
  const cut: string[] = [];
  const stream: ChangeSink = { send: (push) => void pushes.push(push), cut: (reason) => void cut.push(reason) };
  return { stream, pushes, cut, last: () => pushes[pushes.length - 1] };
}

/** Whether `promise` has settled, once the callbacks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('the change feed', () => {
  let feed: ChangeFeed;
  beforeEach(() => {
    jest.useFakeTimers();
    feed = new ChangeFeed({ leaseMs: LEASE, ackTimeoutMs: ACK_TIMEOUT, now: () => Date.now() });
  });
  afterEach(() => jest.useRealTimers());

  it('does not make a write wait when no gateway subscribes', async () => {
    await expect(settled(feed.record(['/a']))).resolves.toBe(true);
    expect(feed.current).toBe(1);
  });

  it('starts each stream over, then answers a write once every gateway has acked it (or a later push)', async () => {
    const one = sink();
    const two = sink();
    const first = feed.subscribe(one.stream);
    const second = feed.subscribe(two.stream);
    expect(one.pushes).toEqual([expect.objectContaining({ epoch: feed.epoch, reset: true, lease_ms: LEASE })]);
    const write = feed.record(['/f/a', '/g/a']);
    expect(one.last()).toMatchObject({ seq: 1, paths: ['/f/a', '/g/a'], reset: false, heartbeat: false });
    expect(two.last()).toMatchObject({ seq: 1 });
    const next = feed.record(['/b']);
    first.acked(2);
    expect(await settled(write)).toBe(false);
    second.acked(1);
    expect(await settled(write)).toBe(true);
    expect(await settled(next)).toBe(false);
    second.acked(2);
    expect(await settled(next)).toBe(true);
    expect(one.cut).toEqual([]);
  });

  it('cuts off a gateway that does not ack in time, and answers writes only once its lease has run out', async () => {
    const slow = sink();
    const healthy = sink();
    feed.subscribe(slow.stream);
    const fast = feed.subscribe(healthy.stream);
    jest.advanceTimersByTime(300);
    // Content's last message to the slow gateway: its lease may run until 300 + LEASE from now on.
    const write = feed.record(['/a']);
    fast.acked(1);
    jest.advanceTimersByTime(ACK_TIMEOUT - 1);
    expect(await settled(write)).toBe(false);
    expect(slow.cut).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(slow.cut).toHaveLength(1);
    expect(feed.subscribed).toBe(1);
    expect(await settled(write)).toBe(false);
    // A write made meanwhile waits as long, though the gateway left is no longer asked.
    const later = feed.record(['/b']);
    fast.acked(2);
    jest.advanceTimersByTime(LEASE - ACK_TIMEOUT - 1);
    expect(await settled(write)).toBe(false);
    expect(await settled(later)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(write)).toBe(true);
    expect(await settled(later)).toBe(true);
    // Then writes are answered as soon as the gateways left have acked.
    const after = feed.record(['/c']);
    fast.acked(3);
    expect(await settled(after)).toBe(true);
    expect(slow.pushes.map((push) => push.seq)).toEqual([0, 1]);
  });

  it('waits out the lease of a gateway whose stream broke, without waiting for its ack', async () => {
    const gone = sink();
    const leaving = feed.subscribe(gone.stream);
    const write = feed.record(['/a']);
    jest.advanceTimersByTime(500);
    leaving.closed();
    expect(await settled(write)).toBe(false);
    jest.advanceTimersByTime(LEASE - 500);
    expect(await settled(write)).toBe(true);
    expect(gone.cut).toEqual([]);
  });

  it('answers a ping with a heartbeat at once, and no longer once the gateway was cut off', () => {
    const gateway = sink();
    const subscription = feed.subscribe(gateway.stream);
    subscription.pinged(7);
    expect(gateway.last()).toMatchObject({ heartbeat: true, pong: 7 });
    void feed.record(['/a']);
    jest.advanceTimersByTime(ACK_TIMEOUT);
    expect(gateway.cut).toHaveLength(1);
    const sent = gateway.pushes.length;
    subscription.pinged(8);
    subscription.acked(1);
    expect(gateway.pushes).toHaveLength(sent);
  });

  it('tells the gateways to serve nothing while a source is not followed, and to start over once it is', async () => {
    const gateway = sink();
    const subscription = feed.subscribe(gateway.stream);
    const blind = feed.following('registry', false);
    expect(gateway.last()).toMatchObject({ seq: 1, blind: true, reset: false });
    expect(await settled(blind)).toBe(false);
    subscription.acked(1);
    expect(await settled(blind)).toBe(true);
    // Another source lost meanwhile changes nothing the gateways must hear.
    await expect(settled(feed.following('types', false))).resolves.toBe(true);
    expect(feed.subscribe(sink().stream)).toBeDefined();
    void feed.following('types', true);
    expect(gateway.last()).toMatchObject({ seq: 1 });
    const seeing = feed.following('registry', true);
    expect(gateway.last()).toMatchObject({ seq: 2, blind: false, reset: true });
    subscription.acked(2);
    expect(await settled(seeing)).toBe(false); // the other gateway has not acked
  });
});

describe('purge targets', () => {
  const snapshot = (path: string) => ({ path }) as never;

  it('are the object and its parent listing, both places of a move, with the UID as tag', () => {
    expect(
      purgeTargetsOf(newEvent('content.modified', { uid: 'u', version: 2, changed: [], snapshot: snapshot('/f/doc') })),
    ).toEqual({ uid: 'u', paths: ['/f/doc', '/f'] });
    expect(
      purgeTargetsOf(
        newEvent('content.moved', {
          uid: 'u',
          version: 3,
          old_path: '/f/doc',
          new_path: '/g/doc',
          old_parent_uid: 'f',
          new_parent_uid: 'g',
          snapshot: snapshot('/g/doc'),
        }),
      ),
    ).toEqual({ uid: 'u', paths: ['/f/doc', '/f', '/g/doc', '/g'] });
    expect(
      purgeTargetsOf(newEvent('content.removed', { uid: 'u', version: 4, path: '/top', removed_uids: ['u'] })),
    ).toEqual({
      uid: 'u',
      paths: ['/top', '/'],
    });
  });
});
