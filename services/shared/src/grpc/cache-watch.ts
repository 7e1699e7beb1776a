/**
 * The watch stream behind a cache of what the config service owns (RegistrySettings, ConfigTypes): the cache is
 * trusted only while the stream is open and has said it is live (its first message), and every message after
 * that announces a change. When the stream closes the cache is distrusted at once and the stream is reopened in
 * the background after `reconnectMs`.
 */
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { Logger } from '../logging/logger';

export interface CacheWatchOptions<M> {
  /** Opens the stream (`WatchRecords`, `WatchTypes`). */
  open: () => ClientReadableStream<M>;
  /** A message of the open stream: the first says it is live, the others name changes. */
  onMessage: (message: M) => void;
  /** The stream closed: nothing cached may be used any more. */
  onClosed: () => void;
  log: Logger;
  /** What is watched, for the log line. */
  what: string;
  /** Wait before reopening a closed stream; default 1 s. */
  reconnectMs?: number;
}

export class CacheWatch<M> {
  private stream: ClientReadableStream<M> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Whether the stream is open and has said so: the cache may be used. */
  live = false;

  constructor(private readonly options: CacheWatchOptions<M>) {
    this.watch();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.live = false;
    this.stream?.cancel();
  }

  private watch(): void {
    if (this.closed) return;
    const stream = this.options.open();
    this.stream = stream;
    stream.on('data', (message: M) => {
      if (this.stream !== stream) return;
      this.options.onMessage(message);
      this.live = true;
    });
    const reopen = (error?: Error) => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      this.live = false;
      this.options.onClosed();
      if (this.closed) return;
      if (error)
        this.options.log.debug({ err: error }, `${this.options.what} watch stream closed; reading without cache`);
      this.timer = setTimeout(() => this.watch(), this.options.reconnectMs ?? 1000);
      this.timer.unref();
    };
    stream.on('error', reopen);
    stream.on('end', () => reopen());
  }
}
