import type { Logger } from '../logging/logger';
import type { BroadcastMessage, BroadcastSubscription } from './port';

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
