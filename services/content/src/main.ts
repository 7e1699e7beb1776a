import { runStandalone } from '@cms/shared';
import { contentConfigSchema } from './config';
import { startContentService } from './service';

runStandalone('content', contentConfigSchema, startContentService);
