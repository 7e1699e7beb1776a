/**
 * Slices of the event loop's time shared out among the SQLite reads of this process. better-sqlite3 answers in the
 * calling thread, so the reads of every request that came in one turn of the loop ran back to back in that turn
 * (2–5 ms each): under ten connections at 100,000 objects the loop went 85–264 ms of CPU without a timer's turn
 * (issue 27, target 6). A read that comes once the current slice has lasted `budgetMs` waits for the loop's next
 * timers phase, where a new slice starts: timers, health checks and the other requests' I/O get their turn in
 * between. A read that comes while the slice has time left runs at once, as before, so an idle process answers as
 * fast as ever.
 *
 * One read is never cut: a slice may run over by the last read it started.
 */
export class LoopSlices {
  /** When the current slice started (the clock's milliseconds); undefined between slices. */
  private sliceStart: number | undefined;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `work` now while the current slice has time left, else in the first later turn of the loop that has. */
  async run<R>(work: () => R): Promise<R> {
    while (!this.hasTimeLeft()) await nextTimersPhase();
    return work();
  }

  private hasTimeLeft(): boolean {
    const now = this.now();
    if (this.sliceStart === undefined) {
      this.sliceStart = now;
      // Fires at the next timers phase, before the reads waiting for it (timers of one duration run in the order they
      // were set): those then start a new slice.
      setTimeout(() => {
        this.sliceStart = undefined;
      }, 0).unref();
    }
    return now - this.sliceStart < this.budgetMs;
  }
}

/** Resolves in the loop's next timers phase (a timer set now never runs in the phase that is running). */
function nextTimersPhase(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
