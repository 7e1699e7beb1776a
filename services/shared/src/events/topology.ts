import type { Logger } from '../logging/logger';

/** A consuming service's durable queue and the topics it receives. */
export interface ConsumerGroup {
  group: string;
  patterns: string[];
}

export interface BusOptions {
  /**
   * Every consumer group, declared up front so that an event published before
   * the consuming process has subscribed is still kept for it.
   */
  topology: ConsumerGroup[];
  logger: Logger;
  /**
   * Handler attempts of one event in a group before it is dead-lettered: only a handler that failed counts, never
   * a delivery cut short by a lost connection. Default 5.
   */
  deliveryLimit?: number;
  /**
   * How long a failed event waits before its next attempt: after the first failure, the second, ...; the last
   * wait repeats. Default 1 s, 5 s, 30 s, 2 min. On RabbitMQ each wait is a queue of its own, named after it.
   */
  retryDelaysMs?: number[];
}

export const DEFAULT_DELIVERY_LIMIT = 5;
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000];
export const DEFAULT_PREFETCH = 16;

export function resolveDeliveryLimit(options: BusOptions): number {
  const limit = options.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`deliveryLimit must be a positive integer, got ${limit}`);
  return limit;
}

export function resolveRetryDelays(options: BusOptions): number[] {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (delays.length === 0 || delays.some((ms) => !Number.isInteger(ms) || ms < 1))
    throw new RangeError(`retryDelaysMs must be positive integers, got [${delays.join(', ')}]`);
  return [...delays];
}

/** The distinct waits an event can meet before its last attempt (a RabbitMQ bus declares a queue for each). */
export function retryDelaysInUse(deliveryLimit: number, delays: readonly number[]): number[] {
  const used = Array.from({ length: deliveryLimit - 1 }, (_, i) => retryDelayAfter(i + 1, delays));
  return [...new Set(used)];
}

/** The wait before the next attempt of an event whose handler has failed `failures` times (1 or more). */
export function retryDelayAfter(failures: number, delays: readonly number[]): number {
  return delays[Math.min(failures, delays.length) - 1];
}

const MAX_ERROR_LENGTH = 1_000;

/** A handler's error as a dead letter keeps it: name and message, bounded. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

export function resolvePrefetch(prefetch: number | undefined): number {
  const value = prefetch ?? DEFAULT_PREFETCH;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`prefetch must be a positive integer, got ${value}`);
  return value;
}

/** Groups by name, with the patterns of duplicate entries merged. */
export function normalizeTopology(topology: ConsumerGroup[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { group, patterns } of topology) {
    const merged = groups.get(group) ?? [];
    for (const pattern of patterns) if (!merged.includes(pattern)) merged.push(pattern);
    groups.set(group, merged);
  }
  return groups;
}

/**
 * AMQP topic matching: both sides are split into `.`-separated words; `*`
 * matches exactly one word and `#` zero or more words.
 */
export function matchesTopic(pattern: string, routingKey: string): boolean {
  // RabbitMQ treats the empty string as zero words, not one empty word.
  const p = pattern === '' ? [] : pattern.split('.');
  const k = routingKey === '' ? [] : routingKey.split('.');
  // memo[i][j]: whether p[i..] matches k[j..]; keeps consecutive `#`s linear.
  const memo: (boolean | undefined)[][] = p.map(() => []);
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    const cached = memo[i][j];
    if (cached !== undefined) return cached;
    let result: boolean;
    if (p[i] === '#') result = match(i + 1, j) || (j < k.length && match(i, j + 1));
    else result = j < k.length && (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
    memo[i][j] = result;
    return result;
  };
  return match(0, 0);
}
