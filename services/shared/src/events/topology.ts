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
  /** Deliveries of one event to a group before it is dead-lettered. Default 5. */
  deliveryLimit?: number;
}

export const DEFAULT_DELIVERY_LIMIT = 5;
export const DEFAULT_PREFETCH = 16;

export function resolveDeliveryLimit(options: BusOptions): number {
  const limit = options.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`deliveryLimit must be a positive integer, got ${limit}`);
  return limit;
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
