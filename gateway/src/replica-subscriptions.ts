import type { Logger } from '@cms/shared';
import { ChangeSubscription, type ChangeStream, type ChangeSubscriptionOptions } from './change-subscription';
import type { ResponseCache } from './http-cache';

/** What HTTP caching asks of the change streams (http-caching.ts). */
export interface CacheGate {
  serving(): boolean;
  ticket(): number;
  current(ticket: number): boolean;
}

/**
 * Keeps this gateway process's cache in step with every content replica sharing the store: one change stream
 * through the content address (balanced: whichever replica answers), which tells the replicas alive
 * (services/content/src/events/replica-membership.ts), and one stream to each of them at its own address. The
 * cache is served from only while every replica any live stream reports has a stream of its own that is serving
 * (change-subscription.ts): each replica's writes then wait for this gateway's ack, and a replica that has just
 * started does not answer writes before every gateway that may serve from its cache has been told of it.
 * With one content process this is its single stream, as before.
 */
export class ReplicaSubscriptions implements CacheGate {
  private readonly generation = { value: 0 };
  private readonly entry: ChangeSubscription;
  /** Streams opened to a replica's own address, by that address. */
  private readonly byAddress = new Map<string, ChangeSubscription>();
  private stopped = false;

  constructor(
    private readonly cache: ResponseCache,
    private readonly open: (address?: string) => ChangeStream,
    private readonly logger: Logger,
    private readonly options: Omit<ChangeSubscriptionOptions, 'generation' | 'onReplicas'> = {},
  ) {
    this.entry = this.subscription(undefined);
  }

  start(): void {
    this.entry.start();
  }

  stop(): void {
    this.stopped = true;
    this.entry.stop();
    for (const subscription of this.byAddress.values()) subscription.stop();
    this.byAddress.clear();
  }

  serving(): boolean {
    const streams = [this.entry, ...this.byAddress.values()];
    const live = new Set(streams.filter((s) => s.serving()).map((s) => s.liveEpoch));
    if (live.size === 0) return false;
    for (const stream of streams) {
      for (const replica of stream.reportedReplicas) if (!live.has(replica.epoch)) return false;
    }
    return true;
  }

  ticket(): number {
    return this.generation.value;
  }

  current(ticket: number): boolean {
    return ticket === this.generation.value && this.serving();
  }

  private subscription(address: string | undefined): ChangeSubscription {
    return new ChangeSubscription(this.cache, () => this.open(address), this.logger, {
      ...this.options,
      generation: this.generation,
      onReplicas: (replicas) => this.follow(replicas),
    });
  }

  /** Opens a stream to each replica reported that has none; closes those to replicas no live stream reports. */
  private follow(reported: readonly { epoch: string; address: string }[]): void {
    if (this.stopped) return;
    for (const { address } of reported) {
      if (this.byAddress.has(address)) continue;
      const subscription = this.subscription(address);
      this.byAddress.set(address, subscription);
      subscription.start();
    }
    const wanted = new Set(
      [this.entry, ...this.byAddress.values()].flatMap((s) => s.reportedReplicas.map((r) => r.address)),
    );
    for (const address of reported) wanted.add(address.address);
    for (const [address, subscription] of this.byAddress) {
      if (wanted.has(address)) continue;
      this.logger.info({ address }, 'content replica gone; its change stream closed');
      subscription.stop();
      this.byAddress.delete(address);
    }
  }
}
