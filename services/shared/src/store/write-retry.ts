/**
 * How a service's write path retries an optimistic write that lost to a concurrent one: a few attempts with a
 * short randomized backoff, so that writers that collided part, then 409.
 */
export interface WriteRetry {
  /** Conditional writes tried before answering 409. */
  attempts: number;
  /** The wait after the first conflict; it doubles after each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): each wait is a random time between half of it and all of it. */
  random(): number;
}

export const DEFAULT_RETRY: WriteRetry = {
  attempts: 5,
  firstDelayMs: 4,
  maxDelayMs: 20,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** The wait before retry `retry` (1 for the first): 2–4 ms, 4–8, 8–16, 10–20 with the defaults. */
export function retryDelay(policy: WriteRetry, retry: number): number {
  const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (retry - 1));
  return delay * (0.5 + policy.random() / 2);
}

/** What an attempt answers when its conditional write lost to a concurrent one. */
export const LOST_RACE: unique symbol = Symbol('lost race');

/**
 * The one retry loop of the services' write paths: runs `attempt` (1 for the first) until it answers anything but
 * LOST_RACE, waiting the policy's backoff before each further one; after `policy.attempts` lost races, throws what
 * `exhausted` makes (a 409, or a 503 where the race is for a name).
 */
export async function retryLostRaces<T>(
  policy: WriteRetry,
  attempt: (n: number) => Promise<T | typeof LOST_RACE>,
  exhausted: () => Error,
): Promise<T> {
  for (let n = 1; ; n++) {
    const result = await attempt(n);
    if (result !== LOST_RACE) return result;
    if (n >= policy.attempts) throw exhausted();
    await policy.sleep(retryDelay(policy, n));
  }
}
