import { performance } from 'node:perf_hooks';
import { ReconnectingStream, type Logger } from '@cms/shared';
import type { ResponseCache } from './http-cache';

/** A push of content's change feed (`cms.content.v1.ChangesPush`). */
export interface ChangePushMessage {
  epoch: string;
  seq: string;
  paths: string[];
  reset: boolean;
  heartbeat: boolean;
  pong: string;
  blind: boolean;
  lease_ms: number;
  /** The content replicas alive, when they changed (and in a stream's first push); else empty. */
  replicas: { epoch: string; address: string }[];
}

/** The part of a grpc-js `WatchChanges` call the subscription uses. */
export interface ChangeStream {
  write(ack: { seq: string; ping: string }): unknown;
  on(event: 'data', listener: (push: ChangePushMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end' | 'status', listener: () => void): unknown;
  cancel(): void;
}

export interface ChangeSubscriptionOptions {
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** A monotonic clock in milliseconds. */
  now?: () => number;
  /**
   * Shared by the subscriptions to every content replica (replica-subscriptions.ts): a change applied by any of
   * them makes an answer fetched before it stale.
   */
  generation?: { value: number };
  /** Told of the replicas this stream's content process reports alive (its first push, and each change). */
  onReplicas?: (replicas: { epoch: string; address: string }[]) => void;
}

/** Of the lease, what is given up for the two clocks' rates differing (NTP slews them by 0.05 % at most). */
const LEASE_MARGIN = 1 / 8;
/** Pings a lease is renewed by: four per lease, so that one or two lost to a busy moment do not matter. */
const PINGS_PER_LEASE = 4;
/** Pings remembered unanswered (content answers each at once, or cuts the stream off). */
const MAX_UNANSWERED_PINGS = 16;

/**
 * Keeps this gateway process's cache in step with content's change feed (services/content/src/events/
 * change-feed.ts) over one `WatchChanges` stream: each push is applied to the cache, then acked, and the write
 * it names answers only after that ack. The cache may be served from (`serving`) only while the stream is open,
 * content follows its sources of change (not `blind`), and a ping content answered was sent less than its lease
 * ago (on this process's clock, minus a margin): content, having cut off a gateway that did not ack, answers its
 * writes only after the lease of the last thing it sent that gateway has run out. The stream starts with a
 * `reset`, and a lost stream empties the cache; it is opened again after a backoff doubling up to `maxBackoffMs` (reconnecting-stream.ts).
 */
export class ChangeSubscription {
  /** Bumped whenever changes are applied; an answer fetched under an older ticket is not kept. */
  private readonly generation: { value: number };
  private readonly onReplicas: ((replicas: { epoch: string; address: string }[]) => void) | undefined;
  private replicas: { epoch: string; address: string }[] = [];
  private readonly streams: ReconnectingStream<ChangeStream>;
  /** The stream has had its first push (content has counted it among the gateways it waits for). */
  private live = false;
  private epoch = '';
  private blind = true;
  private leaseMs = 0;
  /** When the last ping content answered was sent. */
  private leaseFrom = -Infinity;
  /** When the stream had its first push. */
  private liveSince = -Infinity;
  private readonly pings = new Map<number, number>();
  private nextPing = 1;
  private pingTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private reported = false;
  private readonly now: () => number;

  constructor(
    private readonly cache: ResponseCache,
    private readonly open: () => ChangeStream,
    private readonly logger: Logger,
    options: ChangeSubscriptionOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.generation = options.generation ?? { value: 0 };
    this.onReplicas = options.onReplicas;
    this.streams = new ReconnectingStream({
      open: this.open,
      minBackoffMs: options.minBackoffMs,
      maxBackoffMs: options.maxBackoffMs,
      attach: (stream) =>
        stream.on('data', (push) => {
          if (this.streams.isCurrent(stream)) this.received(stream, push);
        }),
      onLost: (reason, stopping) => {
        this.lost();
        if (stopping || this.reported) return;
        this.logger.info({ reason }, 'change stream from content down; the HTTP cache is not used until it is back');
        this.reported = true;
      },
    });
  }

  /** The epoch of the content process this stream is open to, once it is live; '' otherwise. */
  get liveEpoch(): string {
    return this.live ? this.epoch : '';
  }

  /** The replicas this stream's content process last reported alive; none while the stream is not live. */
  get reportedReplicas(): readonly { epoch: string; address: string }[] {
    return this.live ? this.replicas : [];
  }

  start(): void {
    this.streams.start();
  }

  stop(): void {
    this.stopped = true;
    this.streams.stop();
    this.lost();
  }

  /** Whether a cached answer may be served now (see the class comment). */
  serving(): boolean {
    return this.live && !this.blind && this.now() < this.leaseFrom + this.leaseMs * (1 - LEASE_MARGIN) && !this.stopped;
  }

  ticket(): number {
    return this.generation.value;
  }

  /** Whether an answer fetched under `ticket` may be kept. */
  current(ticket: number): boolean {
    return ticket === this.generation.value && this.serving();
  }

  private received(stream: ChangeStream, push: ChangePushMessage): void {
    this.blind = push.blind;
    if (push.heartbeat) {
      const pong = Number(push.pong);
      const sentAt = this.pings.get(pong);
      if (sentAt !== undefined) this.leaseFrom = Math.max(this.leaseFrom, sentAt);
      for (const ping of this.pings.keys()) if (ping <= pong) this.pings.delete(ping);
      return;
    }
    if (push.reset || push.epoch !== this.epoch) this.cache.clear();
    else this.cache.invalidate(push.paths);
    this.generation.value += 1;
    this.epoch = push.epoch;
    if (push.replicas.length > 0) {
      this.replicas = push.replicas;
      this.onReplicas?.(push.replicas);
    }
    this.leaseMs = push.lease_ms;
    // Applied: content may answer the write.
    stream.write({ seq: push.seq, ping: '0' });
    if (!this.live) {
      this.live = true;
      this.liveSince = this.now();
      this.streams.live();
      if (this.reported) this.logger.info('change stream from content open again; HTTP cache in use');
      this.reported = false;
      this.ping(stream);
      this.pingTimer = setInterval(() => this.ping(stream), Math.max(1, this.leaseMs / PINGS_PER_LEASE));
      this.pingTimer.unref();
    }
  }

  private ping(stream: ChangeStream): void {
    // No ping answered for a whole lease: content has cut this stream off, though the end has not come through.
    if (this.now() >= Math.max(this.leaseFrom, this.liveSince) + this.leaseMs) {
      this.streams.fail(stream, 'no heartbeat within the lease');
      return;
    }
    const ping = this.nextPing++;
    this.pings.set(ping, this.now());
    if (this.pings.size > MAX_UNANSWERED_PINGS) this.pings.delete(this.pings.keys().next().value as number);
    stream.write({ seq: '0', ping: String(ping) });
  }

  /** The stream is gone: nothing is served or kept until another one has started over. */
  private lost(): void {
    this.live = false;
    this.replicas = [];
    this.blind = true;
    this.leaseFrom = -Infinity;
    this.pings.clear();
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.cache.clear();
    this.generation.value += 1;
  }
}
