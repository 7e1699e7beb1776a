import type { Logger } from '@cms/shared';

/** One listener of record changes: a `WatchRecords` stream of another service's settings cache. */
export interface ChangeSink {
  /** Hands the names of the records just set to the listener. */
  changed(names: readonly string[]): void;
  /** Ends the listener's stream (shutdown): it stops trusting its cache. */
  end(): void;
}

/** How one process's RecordChanges reaches the other config replicas (events/changes-broadcast.ts). */
export interface ChangeReplicas {
  /** False while changes published by other replicas may not reach this one. */
  readonly live: boolean;
  /** Resolves once the names are on their way to every other replica (the broker's confirm). */
  send(names: readonly string[]): Promise<void>;
}

/** Before sending again names the other replicas may have missed. */
const RESEND_DELAY_MS = 1_000;

/**
 * The fan-out of "these records were set" to every open `WatchRecords` (or `WatchTypes`) stream. The registry
 * tells it after each write and awaits it before the write is answered, so a cache that keeps its stream open
 * drops a changed value before the writer hears back.
 *
 * With several config replicas on one store (`connectReplicas`), every publication also goes to the other
 * replicas, which hand it to their own streams (`receive`), so it reaches every cache whichever replica it
 * watches. Fail safe: while this replica cannot hear the others (`replicasLive(false)`), it ends its streams and
 * refuses new ones, so their caches stop trusting what they hold; names it could not send are sent again until
 * they go. Remaining window: a cache watching another replica drops a value a moment after this replica's confirm
 * from the broker, not before it.
 */
export class RecordChanges {
  private readonly sinks = new Set<ChangeSink>();
  private closed = false;
  private replicas: ChangeReplicas | undefined;
  /** Names the other replicas may not have had yet. */
  private readonly unsent = new Set<string>();
  private resendTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log?: Logger) {}

  attach(sink: ChangeSink): () => void {
    if (!this.accepting) {
      sink.end();
      return () => {};
    }
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** False while a stream opened now could miss changes (closed, or the other replicas out of reach). */
  get accepting(): boolean {
    return !this.closed && (this.replicas?.live ?? true);
  }

  /** To this process's streams, then to the other replicas; never rejects (what did not go is sent again). */
  async publish(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    this.deliver(names);
    if (!this.replicas) return;
    for (const name of names) this.unsent.add(name);
    await this.sendUnsent();
  }

  /** What another replica published: to this process's streams only. */
  receive(names: readonly string[]): void {
    this.deliver(names);
  }

  /** Joins the other replicas; until then (and in a single process) changes stay in this process. */
  connectReplicas(replicas: ChangeReplicas): void {
    this.replicas = replicas;
  }

  /** Whether the other replicas' changes reach this one again; while they do not, no stream may be trusted. */
  replicasLive(live: boolean): void {
    if (!live) this.endStreams();
    else if (this.unsent.size > 0) void this.sendUnsent();
  }

  /** Ends every open stream (their caches stop trusting and reconnect), e.g. after a change it could not read. */
  endStreams(): void {
    for (const sink of [...this.sinks]) sink.end();
    this.sinks.clear();
  }

  get watchers(): number {
    return this.sinks.size;
  }

  /** Ends every stream; later ones end at once. */
  close(): void {
    this.closed = true;
    clearTimeout(this.resendTimer);
    this.endStreams();
  }

  private deliver(names: readonly string[]): void {
    for (const sink of this.sinks) sink.changed(names);
  }

  private async sendUnsent(): Promise<void> {
    const replicas = this.replicas;
    if (!replicas || this.unsent.size === 0 || this.closed) return;
    const names = [...this.unsent];
    this.unsent.clear();
    try {
      await replicas.send(names);
    } catch (err) {
      for (const name of names) this.unsent.add(name);
      this.log?.warn({ err, names: names.length }, 'could not tell the other config replicas of changed records');
      clearTimeout(this.resendTimer);
      this.resendTimer = setTimeout(() => void this.sendUnsent(), RESEND_DELAY_MS);
      this.resendTimer.unref();
    }
  }
}
