/**
 * Read-your-writes (addendum §6), honestly: before a search answers, the producers (content, discussion) publish
 * what they have committed (`AwaitPublished`) and the catalog applies what was published (`waitUntilDrained`).
 * Either link may be down: content's or discussion's broker link (their events wait in their outboxes, where
 * search's own queue being empty proves nothing), or search's own. Then the search answers with what the catalog
 * holds, says so in `X-Search-Lag` (the answer may miss the writes of about that many seconds) and logs a warning
 * with the lag.
 */
import { askPublishBacklog, type Logger, type PublishBacklogClient, type Subscription } from '@cms/shared';

/** Response header of a search answered behind the writes: seconds (rounded up) it may be behind. */
export const SEARCH_LAG_HEADER = 'X-Search-Lag';

export type Freshness =
  | { current: true }
  | {
      current: false;
      /** The answer may miss the writes of about the last `lagMs` (an upper bound where it is not known exactly). */
      lagMs: number;
      /** What is behind, for the log: e.g. `content: 286 objects' events unpublished (broker link down)`. */
      behind: string[];
    };

/** A service whose events the catalog applies, asked over `AwaitPublished`. */
export interface Producer {
  name: string;
  client: () => PublishBacklogClient;
}

export interface ReadYourWritesOptions {
  events: Pick<Subscription, 'waitUntilDrained'>;
  producers: Producer[];
  /** READ_YOUR_WRITES_TIMEOUT_MS: how long a search waits for the catalog to catch up. */
  timeoutMs: number;
  now?: () => number;
}

export class ReadYourWrites {
  /** Every write acknowledged before this instant is in the catalog (the start of the last check that said so). */
  private currentAt: number;
  private readonly now: () => number;
  /** The round of questions under way, and the one the callers that came during it wait for. */
  private running: Promise<Freshness> | undefined;
  private queued: Promise<Freshness> | undefined;

  constructor(private readonly options: ReadYourWritesOptions) {
    this.now = options.now ?? Date.now;
    // Until a check has said otherwise, everything since the start may be missing (an upper bound).
    this.currentAt = this.now();
  }

  /**
   * Waits, bounded by the timeout, until the catalog holds every write acknowledged before the call; otherwise
   * logs a warning with the lag and returns it. Never rejects: a producer that does not answer counts as behind.
   * A round of questions to the producers that starts after the call covers it: callers that come while one is
   * under way share the next (sent once that one ends), so concurrent searches ask each producer once per round
   * rather than once each (the next round carries the request id of the first caller that joined it).
   */
  async check(requestId: string, log: Logger): Promise<Freshness> {
    let round: Promise<Freshness>;
    if (!this.running) round = this.startRound(requestId);
    else {
      this.queued ??= this.running.then(() => {
        this.queued = undefined;
        return this.startRound(requestId);
      });
      // Its round starts once the one under way ends: it is bounded by its own timeout all the same.
      round = this.withinTimeout(this.queued);
    }
    const freshness = await round;
    if (!freshness.current) {
      const { lagMs, behind } = freshness;
      log.warn({ requestId, lagMs, behind }, 'search answered behind the writes: the catalog may miss recent ones');
    }
    return freshness;
  }

  /**
   * The round's answer, or, when the timeout passes first, behind since the catalog last knew itself current (an
   * upper bound, as for a producer that does not answer).
   */
  private withinTimeout(round: Promise<Freshness>): Promise<Freshness> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<Freshness>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            current: false,
            lagMs: Math.max(0, this.now() - this.currentAt),
            behind: ['search: the check it waited for did not end within READ_YOUR_WRITES_TIMEOUT_MS'],
          }),
        this.options.timeoutMs,
      );
      timer.unref();
    });
    return Promise.race([round, expired]).finally(() => clearTimeout(timer));
  }

  private startRound(requestId: string): Promise<Freshness> {
    const round = this.round(requestId).finally(() => {
      if (this.running === round) this.running = undefined;
    });
    this.running = round;
    return round;
  }

  /** One round: the producers' backlogs, then the catalog's; what is behind, if anything. */
  private async round(requestId: string): Promise<Freshness> {
    const { timeoutMs, producers, events } = this.options;
    const started = this.now();
    // Half the budget for the producers' confirms, the rest (at least half) for the catalog to apply them.
    const publishWaitMs = Math.floor(timeoutMs / 2);
    const lags: number[] = [];
    const behind: string[] = [];
    await Promise.all(
      producers.map(async ({ name, client }) => {
        try {
          const backlog = await askPublishBacklog(client(), publishWaitMs, { requestId, timeoutMs });
          if (backlog.published) return;
          lags.push(backlog.oldestAgeMs);
          behind.push(
            `${name}: ${backlog.pending} objects' events unpublished` +
              (backlog.disconnected ? ' (its broker link is down)' : ''),
          );
        } catch (error) {
          // Whatever it holds unpublished is unknown: only what the catalog knew it had counts.
          lags.push(started - this.currentAt);
          behind.push(`${name}: not answering (${(error as Error).message.slice(0, 200)})`);
        }
      }),
    );
    const drainMs = Math.max(started + timeoutMs - this.now(), timeoutMs - publishWaitMs);
    if (!(await events.waitUntilDrained(drainMs))) {
      lags.push(started - this.currentAt);
      behind.push('search: events published and not yet applied (or its broker link is down)');
    }
    if (behind.length === 0) {
      this.currentAt = Math.max(this.currentAt, started);
      return { current: true };
    }
    return { current: false, lagMs: Math.max(0, ...lags), behind };
  }
}

/** The headers of a search answer: the lag, and no cache may keep an answer known to be behind. */
export function freshnessHeaders(freshness: Freshness): Record<string, string> {
  if (freshness.current) return {};
  return { [SEARCH_LAG_HEADER]: String(Math.max(1, Math.ceil(freshness.lagMs / 1000))), 'Cache-Control': 'no-store' };
}
