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

/** How the hub reaches the other identity replicas (events/invalidation-broadcast.ts). */
export interface InvalidationReplicas {
  /** False while invalidations published by other replicas may not reach this one. */
  readonly live: boolean;
  /** Resolves once the message is on its way to every other replica (the broker's confirm). */
  send(invalidation: Invalidation): Promise<void>;
}

/** Before resending an invalidation the other replicas may have missed. */
const RESEND_DELAY_MS = 1_000;

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
 * With several identity replicas (`connectReplicas`), every publication also
 * goes to the other replicas, whose hubs hand it to their own streams and
 * listeners (`receive`), so it reaches every gateway. Fail safe: while this
 * replica cannot hear the others (`replicasLive(false)`), it cuts its streams
 * off and refuses new ones, so its gateways stop trusting their caches; a
 * publication that could not be sent is followed by `all` once it can.
 * Remaining window: a gateway of another replica drops the credential a moment
 * after this replica's confirm from the broker, not before it.
 */
export class InvalidationHub {
  private readonly sinks = new Set<InvalidationSink>();
  private readonly listeners = new Set<InvalidationListener>();
  private closed = false;
  private replicas: InvalidationReplicas | undefined;
  /** A publication the other replicas may not have had: `all` is sent once they can be reached. */
  private unsent = false;
  private resendTimer: NodeJS.Timeout | undefined;

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

  /** False while a stream opened now could miss invalidations (closed, or the other replicas out of reach). */
  get accepting(): boolean {
    return !this.closed && (this.replicas?.live ?? true);
  }

  /** From now on, publications also go to the other identity replicas, and theirs arrive through `receive`. */
  connectReplicas(replicas: InvalidationReplicas): void {
    this.replicas = replicas;
  }

  /** Another replica's publication: this process's listeners and streams only. */
  receive(invalidation: Invalidation): Promise<void> {
    return this.deliverHere(invalidation);
  }

  /** The other replicas' publications reach this one again (true), or may be missed from now on (false). */
  replicasLive(live: boolean): void {
    if (this.closed) return;
    // Whatever listeners cached meanwhile may have missed a publication.
    this.notifyListeners({ all: true });
    if (!live) {
      for (const sink of this.sinks) sink.abort('identity cannot hear its other replicas');
      this.sinks.clear();
      return;
    }
    if (this.unsent) this.resend();
  }

  /** Registers an open watch stream; returns the function that removes it. */
  attach(sink: InvalidationSink): () => void {
    if (this.closed) {
      sink.end();
      return () => undefined;
    }
    if (!this.accepting) {
      sink.abort('identity cannot hear its other replicas');
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

  /** Resolves once this process's streams have taken it and the other replicas' copies are confirmed (or failed). */
  async publish(invalidation: Invalidation): Promise<void> {
    await Promise.all([this.deliverHere(invalidation), this.sendToReplicas(invalidation)]);
  }

  /** Ends every stream (before the gRPC server shuts down, which waits for open calls). */
  close(): void {
    this.closed = true;
    clearTimeout(this.resendTimer);
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
  }

  private async deliverHere(invalidation: Invalidation): Promise<void> {
    this.notifyListeners(invalidation);
    await Promise.all([...this.sinks].map((sink) => this.deliver(sink, invalidation)));
  }

  private notifyListeners(invalidation: Invalidation): void {
    for (const listener of this.listeners) {
      try {
        listener(invalidation);
      } catch (error) {
        this.log?.error({ err: error }, 'an invalidation listener failed');
      }
    }
  }

  private async sendToReplicas(invalidation: Invalidation): Promise<void> {
    const replicas = this.replicas;
    if (!replicas || this.closed) return;
    try {
      await replicas.send(invalidation);
    } catch (error) {
      this.log?.warn({ err: error }, 'could not send an invalidation to the other identity replicas; retrying');
      this.unsent = true;
      this.scheduleResend();
    }
  }

  private scheduleResend(): void {
    if (this.resendTimer || this.closed) return;
    this.resendTimer = setTimeout(() => {
      this.resendTimer = undefined;
      this.resend();
    }, RESEND_DELAY_MS);
    this.resendTimer.unref();
  }

  /** One `all` stands for every publication the other replicas may have missed. */
  private resend(): void {
    if (!this.unsent || this.closed) return;
    this.unsent = false;
    void this.sendToReplicas({ all: true });
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
