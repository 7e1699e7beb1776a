export { startSearchService } from './service';
export { searchConfigSchema, type SearchConfig } from './config';
