export { startContentService } from './service';
export { contentConfigSchema, type ContentConfig } from './config';
export { CONTENT_CONSUMER_GROUPS } from './events/identity-consumer';
