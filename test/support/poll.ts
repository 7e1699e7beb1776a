/**
 * Waiting for eventual consistency with a bound: `check` is called until it
 * returns something other than `undefined` (or stops throwing), never longer
 * than `timeoutMs`. On timeout the error names what was awaited and the last
 * value or error seen, so a failure says how far the system got.
 */
export interface PollOptions {
  /** Pause between checks. Default 50 ms. */
  intervalMs?: number;
  /** What is being waited for, for the timeout message. */
  description?: string;
}

export async function pollUntil<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  options: PollOptions = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await check();
      if (value !== undefined) return value;
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
