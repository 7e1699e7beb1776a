import { runStandalone } from '@cms/shared/adapters';
import { searchConfigSchema } from './config';
import { SEARCH_CONSUMER_GROUPS } from './events/consumer';
import { startSearchService } from './service';

runStandalone('search', searchConfigSchema, startSearchService, SEARCH_CONSUMER_GROUPS);
