import { randomUUID } from 'node:crypto';
import { unary, type ContentServiceHandlers, type Logger } from '@cms/shared';

/** How many writes the feed remembers; a gateway further behind is told to start over (`reset`). */
export const CHANGE_FEED_SIZE = 10_000;

export interface ChangesAnswer {
  epoch: string;
  seq: number;
  paths: string[];
  reset: boolean;
}

/**
 * The paths this content process has written, numbered, for the gateway's HTTP cache (gateway/src/http-cache.ts).
 * The write path records a write once it has committed and before it answers (`record`), so a `Changes` call
 * that starts after a write's answer has been received names its paths. The epoch changes with every process
 * start: a gateway that knew another epoch drops its whole cache.
 */
export class ChangeFeed {
  readonly epoch = randomUUID();
  private seq = 0;
  /** `[seq, paths]`, oldest first. */
  private readonly log: (readonly [number, readonly string[]])[] = [];
  /** Sources of change not being followed now (a watch stream down): until they are, every answer is `reset`. */
  private blind = new Set<string>();

  constructor(private readonly size = CHANGE_FEED_SIZE) {}

  get current(): number {
    return this.seq;
  }

  record(paths: readonly string[]): void {
    this.seq += 1;
    this.log.push([this.seq, paths]);
    // Dropped in blocks, so that a full feed does not shift its array on every write.
    if (this.log.length > this.size + this.size / 10) this.log.splice(0, this.log.length - this.size);
  }

  /** `source` is not followed (false) or followed again (true); see `blind`. */
  following(source: string, followed: boolean): void {
    if (followed) this.blind.delete(source);
    else this.blind.add(source);
  }

  since(epoch: string, since: number): ChangesAnswer {
    const oldest = this.log.length ? this.log[0][0] : this.seq + 1;
    if (this.blind.size > 0 || epoch !== this.epoch || since > this.seq || since < oldest - 1) {
      return { epoch: this.epoch, seq: this.seq, paths: [], reset: true };
    }
    const paths = new Set<string>();
    for (let i = this.log.length - 1; i >= 0 && this.log[i][0] > since; i--) {
      for (const path of this.log[i][1]) paths.add(path);
    }
    return { epoch: this.epoch, seq: this.seq, paths: [...paths], reset: false };
  }
}

/** `ContentService.Changes`. */
export function changeFeedRpcs(feed: ChangeFeed, log: Logger): Pick<ContentServiceHandlers, 'Changes'> {
  return {
    Changes: unary(log, async (request: { epoch: string; since: string | number }) =>
      Promise.resolve(feed.since(request.epoch, Number(request.since))),
    ),
  };
}
