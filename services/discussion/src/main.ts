import { runStandalone } from '@cms/shared/adapters';
import { discussionConfigSchema } from './config';
import { DISCUSSION_CONSUMER_GROUPS } from './events/consumer';
import { startDiscussionService } from './service';

runStandalone('discussion', discussionConfigSchema, startDiscussionService, DISCUSSION_CONSUMER_GROUPS);
