import { runStandalone } from '@cms/shared';
import { discussionConfigSchema } from './config';
import { startDiscussionService } from './service';

runStandalone('discussion', discussionConfigSchema, startDiscussionService);
