import { ReconnectingStream, type Logger } from '@cms/shared';
import type { AuthCache, Invalidation } from './auth-cache';

/** The part of a grpc-js server-streaming call the watcher uses. */
export interface InvalidationStream {
  on(event: 'metadata', listener: () => void): unknown;
  on(event: 'data', listener: (invalidation: Invalidation) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end' | 'status', listener: () => void): unknown;
  cancel(): void;
}

export interface WatchOptions {
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface InvalidationWatcher {
  stop(): void;
}

/**
 * Keeps one `WatchInvalidations` stream open to identity for the life of the
 * gateway process and applies what it receives to the cache. The cache is
 * used only while the stream is open (from identity's response headers on);
 * when it drops, the cache is emptied and set aside, and the stream is opened
 * again after a backoff that doubles up to `maxBackoffMs` (reconnecting-stream.ts).
 */
export function watchInvalidations(
  open: () => InvalidationStream,
  cache: AuthCache,
  logger: Logger,
  { minBackoffMs = 100, maxBackoffMs = 5000 }: WatchOptions = {},
): InvalidationWatcher {
  let reported = false;
  let everConnected = false;
  const streams: ReconnectingStream<InvalidationStream> = new ReconnectingStream({
    open,
    minBackoffMs,
    maxBackoffMs,
    attach(stream) {
      stream.on('metadata', () => {
        if (!streams.isCurrent(stream)) return;
        streams.live();
        cache.setConnected(true);
        everConnected = true;
        if (reported) logger.info('invalidation stream from identity open again; credential cache in use');
        reported = false;
      });
      stream.on('data', (invalidation) => {
        if (streams.isCurrent(stream)) cache.invalidate(invalidation);
      });
    },
    onLost(reason, stopping) {
      cache.setConnected(false);
      if (stopping || reported) return;
      // Before the first connection identity may simply not be up yet.
      logger[everConnected ? 'warn' : 'info'](
        { reason },
        'invalidation stream from identity down; credentials are verified on every request',
      );
      reported = true;
    },
  });
  streams.start();

  return {
    stop() {
      streams.stop();
      cache.setConnected(false);
    },
  };
}
