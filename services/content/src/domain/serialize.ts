import { urlOf } from '@cms/shared';
import { contentDate } from './dates';
import type { ContentDoc } from './model';
import { contentType, SITE_ROOT_TYPE } from './types';

/** The summary form used in `items`, `parent` and search results. */
export function summary(doc: ContentDoc, publicUrl: string) {
  return {
    '@id': urlOf(publicUrl, doc.path ?? '/'),
    '@type': doc.portal_type,
    description: doc.description,
    review_state: doc.review_state,
    title: doc.title,
    type_title: contentType(doc.portal_type).title,
  };
}

export interface Listing {
  items: ContentDoc[];
  total: number;
  batching?: Record<string, string>;
}

/** The full serialized form of the specification's Content object table. */
export function serialize(doc: ContentDoc, parent: ContentDoc | null, listing: Listing | null, publicUrl: string) {
  const type = contentType(doc.portal_type);
  const isRoot = doc.portal_type === SITE_ROOT_TYPE;
  const body: Record<string, unknown> = {
    '@id': urlOf(publicUrl, doc.path ?? '/'),
    '@type': doc.portal_type,
    UID: doc._id,
    created: contentDate(doc.created),
    creators: doc.creators,
    description: doc.description,
    effective: doc.effective ? contentDate(doc.effective) : null,
    expires: doc.expires ? contentDate(doc.expires) : null,
    id: doc.id,
    is_folderish: type.folderish,
    layout: type.layout,
    lock: { locked: false, stealable: true },
    modified: contentDate(doc.modified),
    parent: parent ? summary(parent, publicUrl) : {},
    review_state: doc.review_state,
    title: doc.title,
    type_title: type.title,
    working_copy: null,
    working_copy_of: null,
  };
  if (!isRoot) body.version = 'current';
  if (listing) {
    body.items = listing.items.map((item) => summary(item, publicUrl));
    body.items_total = listing.total;
    if (listing.batching) body.batching = listing.batching;
  }
  return body;
}
