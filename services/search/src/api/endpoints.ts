import { querystring } from './querystring';
import { querystringSearch } from './querystring-search';
import { search } from './search';

/** Every HTTP endpoint of the search service; the gateway's routing table is generated from this list. */
export const ENDPOINTS = [search, querystring, querystringSearch];
