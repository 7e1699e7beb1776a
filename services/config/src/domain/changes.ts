/** One listener of record changes: a `WatchRecords` stream of another service's settings cache. */
export interface ChangeSink {
  /** Hands the names of the records just set to the listener. */
  changed(names: readonly string[]): void;
  /** Ends the listener's stream (shutdown): it stops trusting its cache. */
  end(): void;
}

/**
 * The fan-out of "these records were set" to every open `WatchRecords` stream of this process. The registry
 * tells it after each write and before the write is answered, so a cache that keeps its stream open drops a
 * changed value before the writer hears back.
 *
 * Limit: it reaches the streams open on this process only. With several config replicas, a cache watching
 * another replica learns of the change when its stream is cut and reopened, not before: run one replica, or
 * read without a cache.
 */
export class RecordChanges {
  private readonly sinks = new Set<ChangeSink>();
  private closed = false;

  attach(sink: ChangeSink): () => void {
    if (this.closed) {
      sink.end();
      return () => {};
    }
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  publish(names: readonly string[]): void {
    if (names.length === 0) return;
    for (const sink of this.sinks) sink.changed(names);
  }

  get watchers(): number {
    return this.sinks.size;
  }

  /** Ends every stream; later ones end at once. */
  close(): void {
    this.closed = true;
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
  }
}
