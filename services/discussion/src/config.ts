import { address, commonEnv } from '@cms/shared';
import { z } from 'zod';

export const discussionConfigSchema = z.object({
  ...commonEnv,
  DISCUSSION_GRPC_ADDRESS: address.default('0.0.0.0:50054'),
});

export type DiscussionConfig = z.infer<typeof discussionConfigSchema>;
