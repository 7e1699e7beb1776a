/**
 * A long job served as a server-streaming call (`Reindex`, `RebuildTranslations`): progress messages while it
 * works, then one carrying its result. The job is an async generator yielding its steps, so a cancelled call
 * stops it at its next step (grpc/server.ts's serverStream returns the generator).
 */

/** One step of a job: `done` of `total`, `what` names what was done last. */
export interface ProgressStep {
  done: number;
  total: number;
  what: string;
}

/** A progress message; the last one has `result`. */
export type ProgressMessage<R> = ProgressStep & { result?: R };

/** At most one progress message this often: a message per object would outweigh the work on a large site. */
const PROGRESS_EVERY_MS = 250;

/** The job's steps as messages, at most one per PROGRESS_EVERY_MS, then its result with the last step. */
export async function* progressMessages<R>(
  job: AsyncGenerator<ProgressStep, R>,
  now: () => number = Date.now,
): AsyncGenerator<ProgressMessage<R>> {
  let last: ProgressStep = { done: 0, total: 0, what: '' };
  let sentAt = -Infinity;
  try {
    for (;;) {
      const step = await job.next();
      if (step.done) {
        yield { ...last, result: step.value };
        return;
      }
      last = step.value;
      if (now() - sentAt < PROGRESS_EVERY_MS) continue;
      sentAt = now();
      yield last;
    }
  } finally {
    // Cancelled: the job stops where it is (its own `finally` blocks run).
    await job.return(undefined as R);
  }
}
