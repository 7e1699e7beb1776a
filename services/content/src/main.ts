import { runStandalone } from '@cms/shared/adapters';
import { contentConfigSchema } from './config';
import { CONTENT_CONSUMER_GROUPS } from './events/identity-consumer';
import { startContentService } from './service';

runStandalone('content', contentConfigSchema, startContentService, CONTENT_CONSUMER_GROUPS);
