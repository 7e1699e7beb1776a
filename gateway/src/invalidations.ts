import type { Logger } from '@cms/shared';
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
 * again after a backoff that doubles up to `maxBackoffMs`.
 */
export function watchInvalidations(
  open: () => InvalidationStream,
  cache: AuthCache,
  logger: Logger,
  { minBackoffMs = 100, maxBackoffMs = 5000 }: WatchOptions = {},
): InvalidationWatcher {
  let stopped = false;
  let current: InvalidationStream | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoff = minBackoffMs;
  let reported = false;
  let everConnected = false;

  const connect = () => {
    timer = undefined;
    if (stopped) return;
    let done = false;
    const stream = open();
    current = stream;
    const lost = (reason: string) => {
      if (done) return;
      done = true;
      if (current === stream) current = undefined;
      cache.setConnected(false);
      if (stopped) return;
      if (!reported) {
        // Before the first connection identity may simply not be up yet.
        logger[everConnected ? 'warn' : 'info'](
          { reason },
          'invalidation stream from identity down; credentials are verified on every request',
        );
        reported = true;
      }
      const delay = Math.round(backoff * (0.75 + Math.random() / 4));
      backoff = Math.min(backoff * 2, maxBackoffMs);
      timer = setTimeout(connect, delay);
      timer.unref();
    };
    stream.on('metadata', () => {
      if (done || stopped) return;
      cache.setConnected(true);
      everConnected = true;
      backoff = minBackoffMs;
      if (reported) logger.info('invalidation stream from identity open again; credential cache in use');
      reported = false;
    });
    stream.on('data', (invalidation) => {
      if (!done) cache.invalidate(invalidation);
    });
    stream.on('error', (error) => lost(error.message));
    stream.on('status', () => lost('stream ended'));
    stream.on('end', () => lost('stream ended'));
  };
  connect();

  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      cache.setConnected(false);
      current?.cancel();
      current = undefined;
    },
  };
}
