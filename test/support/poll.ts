/**
 * Waiting for eventual consistency with a bound, the one wait loop of every
 * test (end-to-end tests under test/, unit tests under services/<area>/test
 * and gateway/test import it by relative path): `check` is called until it
 * returns something other than `undefined` or `false` (and does not throw),
 * never longer than `timeoutMs`. On timeout the error names what was awaited
 * and the last value or error seen, so a failure says how far the system got.
 */
export interface PollOptions {
  /** Pause between checks. Default 50 ms. */
  intervalMs?: number;
  /** What is being waited for, for the timeout message. */
  description?: string;
}

/** What `check` answers while the condition does not hold yet. */
type NotYet = undefined | false;

export async function pollUntil<T>(
  check: () => Promise<T | NotYet> | T | NotYet,
  timeoutMs: number,
  options: PollOptions = {},
): Promise<Exclude<T, NotYet>> {
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as Exclude<T, NotYet>;
      last = `attempt ${attempt}: not yet`;
    } catch (error) {
      last = `attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${options.description ?? 'a condition'}; last check: ${last}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, remaining)));
  }
}
