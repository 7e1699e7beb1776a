import { declarations, type ContentContext } from '@cms/shared';
import type { FullComments } from '../clients/comment-render';
import type { FullObjects } from '../clients/content-render';
import type { ContentSource } from '../clients/content-source';
import type { AddableTypesSource } from '../clients/content-types';
import type { SiteSearchSource } from '../clients/search-settings';
import type { Catalog } from '../store/catalog';
import type { ReadYourWrites } from './read-your-writes';

/** What the search service's endpoints are given. */
export interface SearchDeps {
  catalog: Catalog;
  /** Waits until the catalog holds the writes acknowledged so far, or says how far behind it is. */
  readYourWrites: ReadYourWrites;
  /** Content's full serializations, for `fullobjects`. */
  content: FullObjects;
  /** Discussion's full serializations of comments, for `fullobjects` on `Discussion Item` results. */
  comments: FullComments;
  /** Objects as content holds them now (a Collection's query settings). */
  snapshots: ContentSource;
  /** The search control panel's settings (`use_site_search_settings`). */
  siteSearch: SiteSearchSource;
  /** The types a user may add (config's definitions), which the query builder offers whether in use or not. */
  addableTypes: AddableTypesSource;
}

export const { endpoint, operation } = declarations<ContentContext, SearchDeps>();
