import type { Document, EventEnvelope } from '@cms/shared';
import type { UserDoc } from './user';

/** Which users a listing asks for; every condition given must hold. */
export interface UserQuery {
  /** Login name contains (case-insensitive). */
  login?: string;
  /** Id, full name or e-mail contains (case-insensitive). */
  text?: string;
  /** Only these ids. */
  ids?: string[];
}

export interface StoredPortrait extends Document {
  /** The user id. */
  _id: string;
  content_type: string;
  filename: string;
  /** The image bytes, base64. */
  data: string;
  size: number;
}

/** What the user rules need of persistence; implemented in store/ over the store port. */
export interface UserStore {
  /** A live user (not a tombstone). */
  byId(id: string): Promise<UserDoc | null>;
  byLogin(login: string): Promise<UserDoc | null>;
  byIds(ids: string[]): Promise<UserDoc[]>;
  /** Live users by id, at most `limit`, and how many match in all. */
  list(query: UserQuery, limit: number): Promise<{ items: UserDoc[]; total: number }>;
  /**
   * Inserts a new user; false when the id or login is taken by a live user. A
   * tombstone of a removed user with the same id is replaced (its removal
   * event stays queued in its outbox).
   */
  insert(user: UserDoc): Promise<boolean>;
  /** Applies changes if the user is still at `expectedVersion`; null on a conflict or when it is gone. */
  update(id: string, expectedVersion: number | undefined, changes: Partial<UserDoc>): Promise<UserDoc | null>;
  /** Marks a user removed with its event (the commit point of a delete); false when it is not there. */
  tombstone(id: string, event: EventEnvelope): Promise<boolean>;
  portrait(id: string): Promise<StoredPortrait | null>;
  /** Which of the ids have a portrait. */
  withPortraits(ids: string[]): Promise<Set<string>>;
  setPortrait(portrait: StoredPortrait): Promise<void>;
  removePortrait(id: string): Promise<void>;
}

/** Hands committed events to the bus; resolves when confirmed, or quietly after a bound. */
export interface EventFlusher {
  flushUser(id: string): Promise<void>;
  flushGroup(id: string): Promise<void>;
}

/** Site settings the user rules depend on (the registry, owned by the config service). */
export interface LoginSettings {
  useEmailAsLogin(requestId: string): Promise<boolean>;
}

/**
 * Told when what a principal may do changed (password, roles, membership,
 * removal), so caches of verified credentials can be dropped.
 */
export interface PrincipalChanges {
  /** Resolves once the change is announced; writes await it before answering. */
  userChanged(id: string): Promise<void>;
  /** Anything may have changed, e.g. a group's roles. */
  allChanged(): Promise<void>;
}
