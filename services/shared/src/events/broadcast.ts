import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger';
import type { BroadcastMessage, BroadcastSubscription, EventBus } from '../ports/bus';

/** One `subscribeBroadcast` as both bus adapters keep it: its handler and whether it may have missed anything. */
export class BroadcastSubscriber implements BroadcastSubscription {
  private readonly listeners = new Set<(live: boolean) => void>();
  private isLive = false;
  stopped = false;

  constructor(
    readonly topic: string,
    private readonly handler: (message: BroadcastMessage) => void,
    private readonly logger: Logger,
    private readonly forget: (subscriber: BroadcastSubscriber) => void,
  ) {}

  get live(): boolean {
    return this.isLive && !this.stopped;
  }

  onLiveChange(listener: (live: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setLive(live: boolean): void {
    if (this.stopped || live === this.isLive) return;
    this.isLive = live;
    for (const listener of [...this.listeners]) {
      try {
        listener(live);
      } catch (err) {
        this.logger.error({ err, topic: this.topic }, 'a broadcast liveness listener failed');
      }
    }
  }

  deliver(message: BroadcastMessage): void {
    if (this.stopped) return;
    try {
      this.handler(message);
    } catch (err) {
      this.logger.error({ err, topic: this.topic }, 'a broadcast handler failed');
    }
  }

  async stop(): Promise<void> {
    this.setLive(false);
    this.stopped = true;
    this.forget(this);
  }
}

/** What a service's replicas keep in step over a broadcast topic (config's RecordChanges, identity's InvalidationHub). */
export interface ReplicatedHub<T> {
  receive(message: T): unknown;
  connectReplicas(replicas: { readonly live: boolean; send(message: T): Promise<void> }): void;
  replicasLive(live: boolean): void;
}

export interface ReplicaMessages<T> {
  encode(message: T): Buffer;
  decode(body: Buffer): T;
  /** A message that did not decode: what to receive instead (the safe reading), or undefined for nothing. */
  undecodable(err: unknown): T | undefined;
}

/**
 * Joins `hub` to the other replicas of its service over `topic`: what it publishes is broadcast, what the others
 * broadcast reaches it (its own come back, and are skipped: it has had them), and its replicas' liveness follows
 * the subscription's.
 */
export async function joinReplicas<T>(
  hub: ReplicatedHub<T>,
  topic: string,
  bus: EventBus,
  messages: ReplicaMessages<T>,
  logger: Logger,
): Promise<BroadcastSubscription> {
  const origin = randomUUID();
  const subscription = await bus.subscribeBroadcast(topic, ({ body, origin: from }) => {
    if (from === origin) return;
    let message: T | undefined;
    try {
      message = messages.decode(body);
    } catch (err) {
      message = messages.undecodable(err);
    }
    if (message === undefined) return;
    const received = message;
    void Promise.resolve()
      .then(() => hub.receive(received))
      .catch((err: unknown) => logger.error({ err, topic }, 'a message from another replica was not applied'));
  });
  hub.connectReplicas({
    get live() {
      return subscription.live;
    },
    send: (message) => bus.broadcast(topic, messages.encode(message), origin),
  });
  subscription.onLiveChange((live) => hub.replicasLive(live));
  return subscription;
}
