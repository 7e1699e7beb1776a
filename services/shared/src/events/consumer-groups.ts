/**
 * Every consumer group of the suite: its durable queue and the topics it receives. They are the bus's contract
 * between services, as the event types are, so every process on RabbitMQ declares all of them up front: an event
 * published before its consumer's first start is kept in that consumer's queue (content, which consumes its own
 * events, would otherwise make them routable to its own queues only, and lost to the others).
 */
import type { ConsumerGroup } from './topology';

/** Content: removals of the principals its local roles may name. */
export const CONTENT_GROUP: ConsumerGroup = {
  group: 'content',
  patterns: ['identity.user.removed', 'identity.group.removed'],
};
/** Content: the translation groups (content/src/events/translations-consumer.ts). */
export const TRANSLATIONS_GROUP: ConsumerGroup = { group: 'translations', patterns: ['content.#'] };
/** Content: the reference index behind link integrity and relations. */
export const REFERENCES_GROUP: ConsumerGroup = {
  group: 'references',
  patterns: ['content.added', 'content.modified', 'content.moved', 'content.removed'],
};
/**
 * Content: purges sent to caching proxies, on a queue of their own so that they never hold up content's other
 * consumers, and a proxy that is down has its purges retried by the bus without losing them.
 */
export const PURGE_GROUP: ConsumerGroup = { group: 'content-purge', patterns: ['content.#'] };
/** Search: the catalog. */
export const SEARCH_GROUP: ConsumerGroup = { group: 'search', patterns: ['content.#', 'comment.#'] };
/** Config: content rules. */
export const RULES_GROUP: ConsumerGroup = { group: 'rules', patterns: ['content.#', 'comment.#'] };
/** Discussion: removals of content (whose comments go with it), and its own comment events (notification mail). */
export const DISCUSSION_GROUP: ConsumerGroup = { group: 'discussion', patterns: ['content.removed', 'comment.#'] };

export const SUITE_CONSUMER_GROUPS: readonly ConsumerGroup[] = [
  CONTENT_GROUP,
  TRANSLATIONS_GROUP,
  REFERENCES_GROUP,
  PURGE_GROUP,
  SEARCH_GROUP,
  RULES_GROUP,
  DISCUSSION_GROUP,
];
