import type { Logger } from '@cms/shared';
import type { ChangeFeed, ContentReplica } from './change-feed';

/** How often a replica renews its record and reads the others'. */
export const BEAT_MS = 500;
/** How long a record lasts without renewal: a replica silent that long (killed, cut off) is gone. */
export const ALIVE_MS = 5_000;
/** Of its own record's life, what a replica does not count on: its clock and its peers' may differ a little. */
const CLOCK_MARGIN_MS = 1_000;
/** Records expired this long ago are deleted. */
const PURGE_AFTER_MS = 60 * 60_000;
/** How far back a beat reads expired records, to tell a replica that stopped beating from one that left. */
const LOST_LOOKBACK_MS = 60_000;

/** One content process's record in the store it shares with the others (store/replica-registry.ts). */
export interface ReplicaRecord {
  /** Its change feed's epoch. */
  _id: string;
  /** Where gateways reach it (gRPC). */
  address: string;
  /** Wall-clock milliseconds: it counts as alive until then. */
  alive_until: number;
  /** The epochs of the replicas whose set every gateway streaming from it has acked. */
  knows: string[];
}

export interface ReplicaRegistry {
  beat(record: ReplicaRecord): Promise<void>;
  alive(now: number): Promise<ReplicaRecord[]>;
  /** The records alive at some time after `since`: the live ones and those expired since then. */
  recent(since: number): Promise<ReplicaRecord[]>;
  remove(epoch: string): Promise<void>;
  purge(before: number): Promise<void>;
}

export interface ReplicaMembershipOptions {
  beatMs?: number;
  aliveMs?: number;
  /** Wall clock, in milliseconds (records are compared across processes). */
  now?: () => number;
  log?: Logger;
  /**
   * Told the epochs of replicas that stopped beating without leaving (killed, cut off): their records expired
   * unremoved, or one is this address's previous life. What they left half done is for the others to finish.
   */
  onLost?: (epochs: string[]) => void;
}

/**
 * Keeps the gateways' caches exact when several content processes share one store. A gateway serves from its
 * cache only while it has a change stream open to every replica it has been told of (gateway/src/
 * replica-subscriptions.ts), and each replica's writes wait for the acks of the gateways streaming from it
 * (change-feed.ts). What is left is a replica the gateways have not heard of yet: its writes must not answer
 * before they have. So each replica keeps a record in the shared store, renewed every beat; each reads the others',
 * tells its own gateways the set of live replicas whenever it changes (`ChangeFeed.members`, acked by them), and
 * then writes into its record which replicas its gateways know. A replica's writes answer only once every live
 * replica's record says it knows this one (`announced`): by then every gateway that may serve from its cache has
 * been told to stream from this replica as well, and serves nothing until it does.
 *
 * A replica that cannot renew its record stops counting itself announced before the others drop it, so its
 * writes wait again until it is back in every set.
 */
export class ReplicaMembership {
  private readonly beatMs: number;
  private readonly aliveMs: number;
  private readonly now: () => number;
  private readonly log: Logger | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The set last told to the gateways (epochs joined), and the epochs in it. */
  private toldKey = '';
  private knows: string[] = [];
  /** Announced to every live replica, as of a beat whose record lasts until then (minus the margin). */
  private announcedUntil = -Infinity;
  private waiters: Array<() => void> = [];
  private running: Promise<void> = Promise.resolve();
  /** The others seen alive at the last beat, and those already told lost (a record stays a while once expired). */
  private seenAlive: ReadonlySet<string> | undefined;
  private readonly toldLost = new Set<string>();
  private readonly onLost: ((epochs: string[]) => void) | undefined;

  constructor(
    private readonly self: ContentReplica,
    private readonly feed: ChangeFeed,
    private readonly registry: ReplicaRegistry,
    options: ReplicaMembershipOptions = {},
  ) {
    this.beatMs = options.beatMs ?? BEAT_MS;
    this.aliveMs = options.aliveMs ?? ALIVE_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log;
    this.onLost = options.onLost;
  }

  /** Takes the first beat (so that a replica is known before it serves), then beats on its own. */
  async start(): Promise<void> {
    await this.beat();
    this.schedule();
  }

  /** Whether this replica's writes may answer now (see the class comment). */
  get announced(): boolean {
    return this.now() < this.announcedUntil;
  }

  /** Resolves once this replica is announced, or after `timeoutMs` (false) — a write does not wait for ever. */
  whenAnnounced(timeoutMs = this.aliveMs * 2): Promise<boolean> {
    if (this.announced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        this.log?.error(
          { timeoutMs },
          'a write answered before every gateway knew this content replica: a cached read elsewhere may be stale',
        );
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  /** Stops beating and removes this replica's record, so the others drop it at their next beat. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.registry.remove(this.self.epoch).catch((err: unknown) => {
      this.log?.warn(
        { err },
        'could not remove this content replica from the store; the others drop it when it expires',
      );
    });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.beat().finally(() => this.schedule());
    }, this.beatMs);
    this.timer.unref();
  }

  /** One beat: renew the record, read the others', tell the gateways of a change, then see whether all know us. */
  private async beat(): Promise<void> {
    try {
      const at = this.now();
      await this.registry.beat(this.record(at));
      const recent = await this.registry.recent(at - LOST_LOOKBACK_MS);
      const alive = recent.filter((r) => r.alive_until > at);
      this.noticeLost(recent, alive, at);
      // Our own record may not be among them only if the store lost it between the two calls: count it anyway.
      const replicas = sortedReplicas([this.self, ...alive.map((r) => ({ epoch: r._id, address: r.address }))]);
      const key = replicas.map((r) => r.epoch).join(' ');
      if (key !== this.toldKey) {
        await this.feed.members(replicas);
        this.toldKey = key;
        this.knows = replicas.map((r) => r.epoch);
        await this.registry.beat(this.record(at));
      }
      const others = alive.filter((r) => r._id !== this.self.epoch);
      if (others.every((r) => r.knows.includes(this.self.epoch))) {
        this.announcedUntil = at + this.aliveMs - CLOCK_MARGIN_MS;
        for (const waiter of this.waiters.splice(0)) waiter();
      }
      if (Math.random() < this.beatMs / 60_000) await this.registry.purge(at - PURGE_AFTER_MS);
    } catch (err) {
      this.log?.warn({ err }, 'content replica beat failed; retried at the next beat');
    }
  }

  /**
   * A record that expired without being removed is a replica that stopped beating: one seen alive at the last beat,
   * or (at the first beat) this address's previous life, which a process restarted in place leaves behind.
   */
  private noticeLost(recent: ReplicaRecord[], alive: ReplicaRecord[], at: number): void {
    const firstBeat = this.seenAlive === undefined;
    const lost = recent.filter(
      (r) =>
        r._id !== this.self.epoch &&
        !this.toldLost.has(r._id) &&
        (firstBeat ? r.address === this.self.address : r.alive_until <= at && (this.seenAlive?.has(r._id) ?? false)),
    );
    this.seenAlive = new Set(alive.map((r) => r._id).filter((id) => !lost.some((l) => l._id === id)));
    for (const id of this.toldLost) if (!recent.some((r) => r._id === id)) this.toldLost.delete(id);
    if (!lost.length) return;
    for (const record of lost) this.toldLost.add(record._id);
    this.log?.warn(
      { lost: lost.map((r) => ({ epoch: r._id, address: r.address })) },
      'content replica lost: it stopped beating without leaving; its unfinished work is taken over',
    );
    this.onLost?.(lost.map((r) => r._id));
  }

  private record(at: number): ReplicaRecord {
    return { _id: this.self.epoch, address: this.self.address, alive_until: at + this.aliveMs, knows: this.knows };
  }
}

/**
 * Whether this process is the only content replica alive on its store: every other record names this process's own
 * address (its previous life, killed: two live processes never listen at one address) or is not renewed before it
 * expires (at most `ALIVE_MS`: the replica is gone). A record renewed meanwhile is a live replica: false. Start-up
 * asks it to finish at once what a crash left (subtree walks, outbox claims) rather than after their grace, which
 * is there only so as not to take work over from a live replica.
 */
export async function aloneOnStore(
  registry: Pick<ReplicaRegistry, 'alive'>,
  self: { epoch: string; address: string | undefined },
  options: { beatMs?: number; now?: () => number } = {},
): Promise<boolean> {
  const now = options.now ?? Date.now;
  const others = (await registry.alive(now())).filter((r) => r._id !== self.epoch && r.address !== self.address);
  const seen = new Map(others.map((r) => [r._id, r.alive_until]));
  while (seen.size > 0) {
    await new Promise((resolve) => setTimeout(resolve, options.beatMs ?? BEAT_MS));
    const alive = (await registry.alive(now())).filter((r) => seen.has(r._id));
    if (alive.some((r) => r.alive_until > (seen.get(r._id) ?? Infinity))) return false;
    for (const id of [...seen.keys()]) if (!alive.some((r) => r._id === id)) seen.delete(id);
  }
  return true;
}

function sortedReplicas(replicas: ContentReplica[]): ContentReplica[] {
  const byEpoch = new Map(replicas.map((r) => [r.epoch, r]));
  return [...byEpoch.values()].sort((a, b) => (a.epoch < b.epoch ? -1 : a.epoch > b.epoch ? 1 : 0));
}

/**
 * The work lost replicas left, taken over one batch at a time: epochs told before the handler is ready wait for it,
 * and those told while a takeover runs are taken over by the next one. A takeover that fails is logged; the
 * periodic sweep still finishes that work once its grace has passed.
 */
export class LostReplicaWork {
  private pending: string[] = [];
  private handler: ((epochs: string[]) => Promise<void>) | undefined;
  private log: Logger | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  lost(epochs: string[]): void {
    this.pending.push(...epochs);
    this.drain();
  }

  handleWith(handler: (epochs: string[]) => Promise<void>, log: Logger): void {
    this.handler = handler;
    this.log = log;
    this.drain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private drain(): void {
    if (this.running || !this.handler || this.stopped || !this.pending.length) return;
    const epochs = this.pending.splice(0);
    this.running = this.handler(epochs)
      .catch((err: unknown) => this.log?.error({ err, epochs }, 'taking over the work of a lost replica failed'))
      .finally(() => {
        this.running = undefined;
        this.drain();
      });
  }
}
