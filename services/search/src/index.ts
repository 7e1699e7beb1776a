export { startSearchService } from './service';
export { searchConfigSchema, type SearchConfig } from './config';
export { SEARCH_CONSUMER_GROUPS } from './events/consumer';
