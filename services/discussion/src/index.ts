export { startDiscussionService } from './service';
export { discussionConfigSchema, type DiscussionConfig } from './config';
