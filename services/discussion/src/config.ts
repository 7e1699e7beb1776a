import { address, commonEnv, grpcTarget } from '@cms/shared';
import { z } from 'zod';

export const discussionConfigSchema = z.object({
  ...commonEnv,
  DISCUSSION_GRPC_ADDRESS: address.default('0.0.0.0:50054'),
  /** The content service: what a context path names, whether it allows discussion, whether it still exists. */
  CONTENT_ADDRESS: grpcTarget.default('127.0.0.1:50051'),
  /** The identity service: authors' names and portraits. */
  IDENTITY_ADDRESS: grpcTarget.default('127.0.0.1:50052'),
  /** The config service: the discussion settings of the registry. */
  CONFIG_ADDRESS: grpcTarget.default('127.0.0.1:50055'),
  /** How long a comment write waits for its event's confirm (it is committed either way). */
  EVENT_FLUSH_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  /** Comments one user may post per window (moderators are not limited); anonymous callers share one allowance. */
  COMMENT_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  COMMENT_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /** The site's address in notification mail about comments stored without the one their request named. */
  PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  /** Bound on connecting to the SMTP server and on each exchange with it. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
});

export type DiscussionConfig = z.infer<typeof discussionConfigSchema>;
