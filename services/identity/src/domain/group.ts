import type { Document, OutboxFields } from '@cms/shared';

/** The virtual group of every logged-in user: it has no stored members and cannot be changed. */
export const AUTHENTICATED_USERS = 'AuthenticatedUsers';

/** Its title where principals are described for people (sharing, vocabularies). */
export const AUTHENTICATED_USERS_TITLE = 'Logged-in users';

/** A group as stored. `_id` is the group id; `members` holds user and group ids. */
export interface GroupDoc extends Document, OutboxFields {
  _id: string;
  title: string;
  description: string;
  email: string;
  /** The global roles the group gives its members (never the implicit `Authenticated`). */
  roles: string[];
  members: string[];
  /** Bumped by every change, for optimistic concurrency. */
  version: number;
}
