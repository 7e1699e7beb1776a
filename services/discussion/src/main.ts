import { runStandalone } from '@cms/shared/adapters';
import { discussionConfigSchema } from './config';
import { startDiscussionService } from './service';

runStandalone('discussion', discussionConfigSchema, startDiscussionService);
