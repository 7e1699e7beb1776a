import { address, commonEnv, grpcTarget } from '@cms/shared';
import { z } from 'zod';

export const searchConfigSchema = z.object({
  ...commonEnv,
  SEARCH_GRPC_ADDRESS: address.default('0.0.0.0:50053'),
  /** The content service: events are confirmed with it, and reindexing reads it. */
  CONTENT_ADDRESS: grpcTarget.default('127.0.0.1:50051'),
  /** The config service: the search control panel's settings (`use_site_search_settings`). */
  CONFIG_ADDRESS: grpcTarget.default('127.0.0.1:50055'),
  /** The discussion service: comment events are confirmed with it before comments are indexed. */
  DISCUSSION_ADDRESS: grpcTarget.default('127.0.0.1:50054'),
  /**
   * How long a search waits for the writes acknowledged so far to reach the catalog (half of it for content's and
   * discussion's confirms); past it, it answers with what the catalog holds and `X-Search-Lag`.
   */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().nonnegative().default(2000),
  /** How long the catalog keeps a removed object's tombstone (against late, older events) before purging it. */
  SEARCH_TOMBSTONE_RETENTION_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60 * 60_000),
});

export type SearchConfig = z.infer<typeof searchConfigSchema>;
