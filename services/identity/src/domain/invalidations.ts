import type { Logger } from '@cms/shared';

/** What a gateway may no longer trust from its cache of verified credentials (`cms.identity.v1.Invalidation`). */
export type Invalidation = { token_id: string } | { user_id: string } | { all: true };

/** One open `WatchInvalidations` stream, as the hub sees it. */
export interface InvalidationSink {
  /** Resolves once the message has been handed to the transport (or the stream has ended). */
  write(invalidation: Invalidation): Promise<void>;
  /** Ends the stream normally (shutdown). */
  end(): void;
  /** Cuts the stream off, so its gateway stops trusting its cache and reconnects. */
  abort(reason: string): void;
}

export type InvalidationListener = (invalidation: Invalidation) => void;

/**
 * The in-process fan-out of invalidations of one identity process: to every
 * gateway's `WatchInvalidations` stream and to in-process listeners (the
 * identity's own Basic credential cache).
 *
 * Whoever changes what a credential stands for calls it and awaits it before
 * answering: `tokenRevoked(jti)` (logout, renew), `userChanged(id)` (a user's
 * password, roles or groups changed, or the user was removed) and
 * `allChanged()` (e.g. a group's roles changed); it implements the write path's
 * `PrincipalChanges`. `publish` resolves once
 * every open stream has taken the message; a stream that does not take it
 * within `writeTimeoutMs` is cut off, and its gateway, disconnected, stops
 * using its cache until it reconnects.
 *
 * Limit: the hub reaches the gateways watching this process only. With several
 * identity replicas, a gateway watching another replica keeps a cached
 * credential until its cache TTL (AUTH_CACHE_TTL_MS) passes.
 */
export class InvalidationHub {
  private readonly sinks = new Set<InvalidationSink>();
  private readonly listeners = new Set<InvalidationListener>();
  private closed = false;

  constructor(
    private readonly log?: Logger,
    private readonly writeTimeoutMs = 2000,
  ) {}

  /** Number of open watch streams. */
  get watchers(): number {
    return this.sinks.size;
  }

  /** Calls `listener` synchronously on every publication; returns the unsubscribe function. */
  onInvalidation(listener: InvalidationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers an open watch stream; returns the function that removes it. */
  attach(sink: InvalidationSink): () => void {
    if (this.closed) {
      sink.end();
      return () => undefined;
    }
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  tokenRevoked(tokenId: string): Promise<void> {
    return this.publish({ token_id: tokenId });
  }

  userChanged(userId: string): Promise<void> {
    return this.publish({ user_id: userId });
  }

  allChanged(): Promise<void> {
    return this.publish({ all: true });
  }

  async publish(invalidation: Invalidation): Promise<void> {
    for (const listener of this.listeners) {
      try {
        listener(invalidation);
      } catch (error) {
        this.log?.error({ err: error }, 'an invalidation listener failed');
      }
    }
    await Promise.all([...this.sinks].map((sink) => this.deliver(sink, invalidation)));
  }

  /** Ends every stream (before the gRPC server shuts down, which waits for open calls). */
  close(): void {
    this.closed = true;
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
  }

  private async deliver(sink: InvalidationSink, invalidation: Invalidation): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.writeTimeoutMs);
    });
    const written = sink.write(invalidation).then(
      () => false,
      () => true,
    );
    const failed = await Promise.race([written, timedOut]);
    clearTimeout(timer);
    if (failed) {
      this.log?.warn('an invalidation stream did not take a message in time; cutting it off');
      this.sinks.delete(sink);
      sink.abort('invalidation not delivered in time');
    }
  }
}
