import { runStandalone } from '@cms/shared';
import { searchConfigSchema } from './config';
import { startSearchService } from './service';

runStandalone('search', searchConfigSchema, startSearchService);
