import { declarations, type ContentContext, type Subscription } from '@cms/shared';
import type { Catalog } from '../store/catalog';

/** What the search service's endpoints are given. */
export interface SearchDeps {
  catalog: Catalog;
  /** The content events' subscription, to wait until the catalog has applied what was published. */
  events: Subscription;
  readYourWritesTimeoutMs: number;
}

export const { endpoint, operation } = declarations<ContentContext, SearchDeps>();
