import type { Document } from '@cms/shared';
import type { UserDoc } from './user';
import type { VersionedStore } from './write-path';

/** Which users a listing asks for; every condition given must hold. */
export interface UserQuery {
  /** Login name contains (case-insensitive). */
  login?: string;
  /** Id, full name or e-mail contains (case-insensitive). */
  text?: string;
  /** Only these ids. */
  ids?: string[];
  /** Only ids after this one (a page of a listing in id order). */
  after?: string;
}

export interface StoredPortrait extends Document {
  /** The user id. */
  _id: string;
  content_type: string;
  filename: string;
  /** The image bytes, base64. */
  data: string;
  size: number;
  /** New with every upload (absent on portraits stored before it), so an upload is taken back only while it is current. */
  revision?: string;
}

/**
 * What the user rules need of persistence; implemented in store/ over the
 * store port. Users are written through the write path (`VersionedStore`);
 * a portrait is a record of its own, written beside its user.
 */
export interface UserStore extends VersionedStore<UserDoc> {
  byLogin(login: string): Promise<UserDoc | null>;
  byIds(ids: string[]): Promise<UserDoc[]>;
  /** Live users by id, at most `limit`, and how many match in all. */
  list(query: UserQuery, limit: number): Promise<{ items: UserDoc[]; total: number }>;
  portrait(id: string): Promise<StoredPortrait | null>;
  /** Which of the ids have a portrait. */
  withPortraits(ids: string[]): Promise<Set<string>>;
  /** Stores a portrait in place of the user's current one; resolves to that one (null: none). */
  replacePortrait(portrait: StoredPortrait): Promise<StoredPortrait | null>;
  /** Removes the user's portrait; resolves to it (null: none). */
  removePortrait(id: string): Promise<StoredPortrait | null>;
  /**
   * Puts `previous` back (null: no portrait) if the user's portrait is still
   * the revision `current` (null: none), i.e. no other write replaced it since.
   */
  restorePortrait(id: string, current: string | null, previous: StoredPortrait | null): Promise<void>;
}

/** Site settings the user rules depend on (the registry, owned by the config service). */
export interface LoginSettings {
  useEmailAsLogin(requestId: string): Promise<boolean>;
}
