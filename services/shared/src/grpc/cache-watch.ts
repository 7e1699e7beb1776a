/**
 * The watch stream behind a cache of what the config service owns (RegistrySettings, ConfigTypes): the cache is
 * trusted only while the stream is open and has said it is live (its first message), and every message after
 * that announces a change. When the stream closes the cache is distrusted at once and the stream is reopened in
 * the background after about `reconnectMs` (reconnecting-stream.ts).
 */
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { Logger } from '../logging/logger';
import { ReconnectingStream } from './reconnecting-stream';

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
  private readonly streams: ReconnectingStream<ClientReadableStream<M>>;
  /** Whether the stream is open and has said so: the cache may be used. */
  live = false;

  constructor(options: CacheWatchOptions<M>) {
    const reconnectMs = options.reconnectMs ?? 1000;
    this.streams = new ReconnectingStream({
      open: options.open,
      minBackoffMs: reconnectMs,
      maxBackoffMs: reconnectMs,
      attach: (stream) =>
        stream.on('data', (message: M) => {
          if (!this.streams.isCurrent(stream)) return;
          options.onMessage(message);
          this.live = true;
        }),
      onLost: (reason, stopping) => {
        this.live = false;
        options.onClosed();
        if (!stopping) options.log.debug({ reason }, `${options.what} watch stream closed; reading without cache`);
      },
    });
    this.streams.start();
  }

  close(): void {
    this.streams.stop();
    this.live = false;
  }
}
