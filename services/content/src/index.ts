export { startContentService } from './service';
export { contentConfigSchema, type ContentConfig } from './config';
