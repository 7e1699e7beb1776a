/**
 * The one way a process keeps a long-lived stream open (the gateway's credential invalidations and content change
 * feed, the config caches' watches): open it, and when it ends or fails, open another after a backoff that doubles
 * from `minBackoffMs` up to `maxBackoffMs` (each wait drawn between three quarters of it and all of it, so that many
 * processes cut off at once do not come back at once), back to the shortest once a stream has said it is live.
 */

/** What the helper needs of a stream (a grpc-js call, or a test's fake). */
export interface ClosableStream {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end' | 'status', listener: () => void): unknown;
  cancel(): void;
}

export interface ReconnectingStreamOptions<S extends ClosableStream> {
  open: () => S;
  /** Wires a new stream's messages; a listener checks `isCurrent(stream)` before it acts. */
  attach: (stream: S) => void;
  /**
   * The current stream is gone (ended, failed, failed by `fail`, or stopped: `stopping`), told once per stream,
   * before the next one is scheduled.
   */
  onLost: (reason: string, stopping: boolean) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
}

export class ReconnectingStream<S extends ClosableStream> {
  private stream: S | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private backoff: number;

  constructor(private readonly options: ReconnectingStreamOptions<S>) {
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = Math.max(this.minBackoffMs, options.maxBackoffMs ?? 5000);
    this.backoff = this.minBackoffMs;
  }

  start(): void {
    this.connect();
  }

  /** Whether `stream` is the one open now (not one that was lost, replaced or stopped). */
  isCurrent(stream: S): boolean {
    return this.stream === stream && !this.stopped;
  }

  /** The current stream said it is live: the next loss waits the shortest backoff again. */
  live(): void {
    this.backoff = this.minBackoffMs;
  }

  /** Gives up on `stream` as if it had failed (a heartbeat missed), cancels it and schedules the next. */
  fail(stream: S, reason: string): void {
    this.lost(stream, reason);
    stream.cancel();
  }

  stop(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const stream = this.stream;
    this.stream = undefined;
    this.stopped = true;
    if (!stream) return;
    this.options.onLost('stopped', true);
    stream.cancel();
  }

  private connect(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const stream = this.options.open();
    this.stream = stream;
    this.options.attach(stream);
    stream.on('error', (error) => this.lost(stream, error.message));
    stream.on('status', () => this.lost(stream, 'stream ended'));
    stream.on('end', () => this.lost(stream, 'stream ended'));
  }

  private lost(stream: S, reason: string): void {
    if (!this.isCurrent(stream)) return;
    this.stream = undefined;
    this.options.onLost(reason, false);
    const random = this.options.random ?? Math.random;
    const delay = Math.round(this.backoff * (0.75 + random() / 4));
    this.backoff = Math.min(this.backoff * 2, this.maxBackoffMs);
    this.timer = setTimeout(() => this.connect(), delay);
    this.timer.unref();
  }
}
