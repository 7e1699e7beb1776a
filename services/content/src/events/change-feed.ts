import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ContentServiceHandlers, Logger } from '@cms/shared';

/** How long a gateway may serve from its cache after a ping content answered, with no news since. */
export const LEASE_MS = 2_000;
/** How long a gateway has to ack a push before it is cut off. */
export const ACK_TIMEOUT_MS = 1_000;

/** One message to a gateway (`cms.content.v1.ChangesPush`). */
export interface ChangePush {
  epoch: string;
  seq: number;
  paths: readonly string[];
  reset: boolean;
  heartbeat: boolean;
  pong: number;
  blind: boolean;
  lease_ms: number;
  /** The content replicas alive now (see replica-membership.ts); empty when unchanged since the last push. */
  replicas: readonly ContentReplica[];
}

/** One content process, as gateways find it: its feed's epoch and its gRPC address. */
export interface ContentReplica {
  epoch: string;
  address: string;
}

/** One open `WatchChanges` stream, as the feed sees it. */
export interface ChangeSink {
  send(push: ChangePush): void;
  /** Ends the stream with an error: its gateway stops serving from its cache and reconnects. */
  cut(reason: string): void;
}

/** What the stream handler tells the feed about its gateway. */
export interface Subscription {
  /** The gateway has applied every push up to `seq`. */
  acked(seq: number): void;
  /** The gateway asks for a heartbeat echoing `ping` (renewing its lease). */
  pinged(ping: number): void;
  /** The stream ended (the gateway left, or the connection broke). */
  closed(): void;
}

export interface ChangeFeedOptions {
  leaseMs?: number;
  ackTimeoutMs?: number;
  /** A monotonic clock in milliseconds. */
  now?: () => number;
  log?: Logger;
}

interface Subscriber {
  sink: ChangeSink;
  /** When content last sent it anything: the latest moment its gateway's lease can run from. */
  lastSentAt: number;
}

interface Waiter {
  seq: number;
  /** The subscribers that have not acked `seq` yet. */
  pending: Set<Subscriber>;
  resolve: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Pushes the paths this content process writes to the gateways' HTTP caches (gateway/src/change-subscription.ts)
 * and confirms them: `record` is called by the write path once a write has committed and awaited before the
 * write answers; it resolves when every gateway subscribed has applied the push and acked it. A gateway that
 * does not ack within `ackTimeoutMs` (or whose stream breaks) is dropped, and until its lease has run out
 * (`leaseMs` after content last sent it anything) every write waits: by then that gateway has stopped serving
 * from its cache, since it serves only within `leaseMs` of sending a ping content answered, measured on its own
 * clock from before content's answer. Nobody subscribed: writes do not wait.
 *
 * A source of change not followed now (a config watch stream down, `following`) makes every gateway stop
 * serving from its cache (`blind`), confirmed the same way, until it is followed again (then `reset`).
 * The epoch changes with every process start; each stream starts with a `reset`.
 */
export class ChangeFeed {
  readonly epoch = randomUUID();
  private seq = 0;
  private readonly subscribers = new Set<Subscriber>();
  /** Pushes not yet acked by everyone, in `seq` order. */
  private waiters: Waiter[] = [];
  /** Writes answer no sooner than this: the lease of a gateway dropped without acking may still run. */
  private fencedUntil = -Infinity;
  /** The replicas alive now, as last announced to the gateways (`members`); none known until then. */
  private replicas: readonly ContentReplica[] = [];
  /** Sources of change not being followed now (see `following`). */
  private readonly blind = new Set<string>();
  private readonly leaseMs: number;
  private readonly ackTimeoutMs: number;
  private readonly now: () => number;
  private readonly log: Logger | undefined;

  constructor(options: ChangeFeedOptions = {}) {
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    this.now = options.now ?? (() => performance.now());
    this.log = options.log;
  }

  get current(): number {
    return this.seq;
  }

  /** Number of gateways subscribed. */
  get subscribed(): number {
    return this.subscribers.size;
  }

  /** Resolves once every subscribed gateway has dropped what a write at `paths` may have changed. */
  record(paths: readonly string[]): Promise<void> {
    return this.push(paths, false);
  }

  /**
   * The content replicas alive now changed (replica-membership.ts): resolves once every subscribed gateway knows
   * the new set, so that each of them serves from its cache only with a stream open to every replica.
   */
  members(replicas: readonly ContentReplica[]): Promise<void> {
    this.replicas = replicas;
    return this.push([], false, replicas);
  }

  /** `source` is not followed (false) or followed again (true); resolves once every gateway knows. */
  following(source: string, followed: boolean): Promise<void> {
    const wasBlind = this.blind.size > 0;
    if (followed) this.blind.delete(source);
    else this.blind.add(source);
    const isBlind = this.blind.size > 0;
    if (wasBlind === isBlind) return Promise.resolve();
    // Answers rendered while blind may be of settings since changed: followed again, everything goes.
    return this.push([], !isBlind);
  }

  subscribe(sink: ChangeSink): Subscription {
    const subscriber: Subscriber = { sink, lastSentAt: this.now() };
    this.subscribers.add(subscriber);
    // A write committed before now is in whatever the gateway renders from now on: it starts from nothing.
    this.send(subscriber, this.message([], true, false, 0, this.replicas));
    return {
      acked: (seq) => this.acked(subscriber, seq),
      pinged: (ping) => {
        if (this.subscribers.has(subscriber)) this.send(subscriber, this.message([], false, true, ping));
      },
      closed: () => this.drop(subscriber),
    };
  }

  /** Ends every stream (shutdown); writes under way still wait for the leases of the gateways cut off. */
  close(): void {
    for (const subscriber of [...this.subscribers]) this.cut(subscriber, 'content is stopping');
  }

  private push(paths: readonly string[], reset: boolean, replicas: readonly ContentReplica[] = []): Promise<void> {
    this.seq += 1;
    if (this.subscribers.size === 0) return this.fence();
    const message = this.message(paths, reset, false, 0, replicas);
    const seq = this.seq;
    const pending = new Set(this.subscribers);
    for (const subscriber of pending) this.send(subscriber, message);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const subscriber of pending)
          this.cut(subscriber, `no ack of change ${seq} within ${this.ackTimeoutMs} ms`);
      }, this.ackTimeoutMs);
      this.waiters.push({ seq, pending, resolve, timer });
    });
  }

  private message(
    paths: readonly string[],
    reset: boolean,
    heartbeat: boolean,
    pong: number,
    replicas: readonly ContentReplica[] = [],
  ): ChangePush {
    return {
      epoch: this.epoch,
      seq: this.seq,
      paths,
      reset,
      heartbeat,
      pong,
      blind: this.blind.size > 0,
      lease_ms: this.leaseMs,
      replicas,
    };
  }

  private send(subscriber: Subscriber, push: ChangePush): void {
    subscriber.lastSentAt = this.now();
    subscriber.sink.send(push);
  }

  private acked(subscriber: Subscriber, seq: number): void {
    if (!this.subscribers.has(subscriber)) return;
    for (const waiter of this.waiters) {
      if (waiter.seq > seq) break;
      waiter.pending.delete(subscriber);
    }
    this.settle();
  }

  private cut(subscriber: Subscriber, reason: string): void {
    if (!this.subscribers.has(subscriber)) return;
    this.log?.warn({ reason }, 'gateway cut off from the change feed; writes wait for its cache lease to run out');
    this.drop(subscriber);
    subscriber.sink.cut(reason);
  }

  private drop(subscriber: Subscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    // Its gateway may not know yet that it is gone: it may serve from its cache until its lease runs out.
    this.fencedUntil = Math.max(this.fencedUntil, subscriber.lastSentAt + this.leaseMs);
    for (const waiter of this.waiters) waiter.pending.delete(subscriber);
    this.settle();
  }

  /** Answers the writes every subscriber has acked (each after the fence). */
  private settle(): void {
    const done = this.waiters.filter((waiter) => waiter.pending.size === 0);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.pending.size > 0);
    for (const waiter of done) {
      clearTimeout(waiter.timer);
      void this.fence().then(waiter.resolve);
    }
  }

  private fence(): Promise<void> {
    const wait = this.fencedUntil - this.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, Math.ceil(wait))) : Promise.resolve();
  }
}

/** `ContentService.WatchChanges`: one gateway process's stream of pushes, and its acks and pings. */
export function changeFeedRpcs(feed: ChangeFeed): Pick<ContentServiceHandlers, 'WatchChanges'> {
  return {
    WatchChanges: (call) => {
      let open = true;
      const subscription = feed.subscribe({
        send: (push) => {
          if (open && !call.cancelled)
            call.write({ ...push, paths: [...push.paths], replicas: push.replicas.map((r) => ({ ...r })) });
        },
        cut: (reason) => {
          if (!open) return;
          open = false;
          // How grpc-js ends a bidirectional call with a status (`destroy` would not send one).
          call.emit('error', Object.assign(new Error(reason), { code: 14 /* UNAVAILABLE */, details: reason }));
        },
      });
      call.on('data', (ack: { seq: string; ping: string }) => {
        if (!open) return;
        if (Number(ack.ping) > 0) subscription.pinged(Number(ack.ping));
        if (Number(ack.seq) > 0) subscription.acked(Number(ack.seq));
      });
      const ended = () => {
        open = false;
        subscription.closed();
      };
      // The gateway closed its side: so does content.
      call.on('end', () => {
        if (open) call.end();
        ended();
      });
      call.on('cancelled', ended);
      call.on('error', ended);
      call.on('close', ended);
    },
  };
}
