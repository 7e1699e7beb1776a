import type { Logger } from '@cms/shared';
import type { Catalog } from './catalog';

/** How often expired tombstones are looked for, at most (more often when the retention is shorter). */
const SWEEP_INTERVAL_MS = 60 * 60_000;

export interface TombstoneSweepOptions {
  /** How long a removed object's tombstone is kept: longer than any event can be late. */
  retentionMs: number;
  /** The time now; injected so that tests set it. */
  now: () => Date;
  log: Logger;
}

export interface TombstoneSweep {
  /** Purges the tombstones older than the retention now; returns how many. */
  sweep(): Promise<number>;
  /** Stops the periodic sweep, after the one under way. */
  stop(): Promise<void>;
}

/**
 * Purges expired tombstones periodically. A tombstone lets a removal win over a late, older event; after the
 * retention no event is that late, and one that is anyway is dropped, since content no longer confirms the object.
 */
export function startTombstoneSweep(
  catalog: Catalog,
  { retentionMs, now, log }: TombstoneSweepOptions,
): TombstoneSweep {
  const sweep = async () => {
    const purged = await catalog.purgeTombstones(new Date(now().getTime() - retentionMs).toISOString());
    if (purged) log.info({ purged }, 'purged expired catalog tombstones');
    return purged;
  };
  let running: Promise<unknown> | undefined;
  const tick = () => {
    // One sweep at a time: a slow one is not run over by the next.
    running ??= sweep()
      .catch((error: unknown) => log.warn({ err: error }, 'tombstone sweep failed; retried later'))
      .finally(() => (running = undefined));
  };
  // At start too: a process restarted more often than the interval would never sweep.
  tick();
  const timer = setInterval(tick, Math.min(retentionMs, SWEEP_INTERVAL_MS));
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
