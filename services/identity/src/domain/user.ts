import { randomUUID } from 'node:crypto';
import type { Document, OutboxFields, Principal } from '@cms/shared';

/** A user account as stored. `_id` is the user id. */
export interface UserDoc extends Document, OutboxFields {
  _id: string;
  /** Login name (the user id, or the e-mail address when e-mail login is on). */
  login: string;
  fullname: string;
  email: string;
  description?: string;
  home_page?: string;
  location?: string;
  /** The user's own global roles (group roles are added when the principal is resolved). */
  roles: string[];
  password_hash: string;
  /**
   * New with the account and with every password change: a token carries the one it was issued under and is
   * refused once it differs, so a new password ends every earlier session, and a new account with a removed
   * one's id does not take over its tokens. Absent on accounts written before it existed (their tokens carry none).
   */
  token_generation?: string;
  /** Bumped by every change, for optimistic concurrency; absent on accounts written before it existed. */
  version?: number;
}

/** Longer than any login name (a user id has at most 100 characters, an e-mail address 254). */
export const MAX_LOGIN_LENGTH = 256;

/**
 * The login name as accounts are found by it: e-mail logins are stored lower-case, so a login with `@` typed
 * with capitals is the same login; other login names are compared as they are.
 */
export function normalizedLogin(login: string): string {
  return login.includes('@') ? login.toLowerCase() : login;
}

/** What a user gets from the groups it belongs to (directly or through other groups). */
export interface Membership {
  /** Group ids, `AuthenticatedUsers` included, sorted. */
  groups: string[];
  /** The roles those groups give. */
  roles: string[];
}

/** The caller as other services see it: own roles plus the roles of its groups. */
export function principalOf(user: UserDoc, membership: Membership): Principal {
  return {
    id: user._id,
    roles: [...new Set([...user.roles, ...membership.roles])],
    groups: membership.groups,
    fullname: user.fullname,
  };
}

/** A token generation for a new account or a new password (UserDoc.token_generation). */
export function newTokenGeneration(): string {
  return randomUUID();
}
