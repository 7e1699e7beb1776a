export { startDiscussionService } from './service';
export { discussionConfigSchema, type DiscussionConfig } from './config';
export { DISCUSSION_CONSUMER_GROUPS } from './events/consumer';
