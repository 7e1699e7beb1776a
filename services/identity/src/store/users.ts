import {
  DuplicateKeyError,
  withEvents,
  type Collection,
  type DocumentStore,
  type EventEnvelope,
  type Filter,
  type Update,
} from '@cms/shared';
import { normalizedLogin, type UserDoc } from '../domain/user';
import type { StoredPortrait, UserQuery, UserStore } from '../domain/users-repository';
import { contains, insertOverTombstone, LIVE, updateAtVersion } from './records';

export class UsersRepository implements UserStore {
  readonly users: Collection<UserDoc>;
  readonly portraits: Collection<StoredPortrait>;

  constructor(store: DocumentStore) {
    this.users = store.collection<UserDoc>('users');
    this.portraits = store.collection<StoredPortrait>('portraits');
  }

  async ensureIndexes(): Promise<void> {
    await this.users.createIndex({ login: 1 }, { unique: true });
  }

  /** E-mail logins are stored lower-case; a login typed with capitals still finds its account. */
  async byLogin(login: string): Promise<UserDoc | null> {
    const user = await this.users.findOne({ login, ...LIVE });
    const normalized = normalizedLogin(login);
    if (user || normalized === login) return user;
    return this.users.findOne({ login: normalized, ...LIVE });
  }

  byId(id: string): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id, ...LIVE }, { projection: { _outbox: 0 } });
  }

  async byIds(ids: string[]): Promise<UserDoc[]> {
    if (ids.length === 0) return [];
    return this.users.find({ _id: { $in: ids }, ...LIVE }, { projection: { _outbox: 0 } });
  }

  async list(query: UserQuery, limit: number): Promise<{ items: UserDoc[]; total: number }> {
    const filter: Filter = { ...LIVE };
    if (query.ids || query.after !== undefined)
      filter._id = {
        ...(query.ids ? { $in: query.ids } : {}),
        ...(query.after !== undefined ? { $gt: query.after } : {}),
      };
    if (query.login !== undefined) filter.login = contains(query.login);
    if (query.text !== undefined) {
      const text = contains(query.text);
      filter.$or = [{ _id: text }, { fullname: text }, { email: text }];
    }
    const [items, total] = await Promise.all([
      this.users.find(filter, { sort: { _id: 1 }, limit, projection: { _outbox: 0 } }),
      this.users.countDocuments(filter),
    ]);
    return { items, total };
  }

  /**
   * Inserts a new user; false when the id or login is taken by a live user. A
   * tombstone of a removed user with the same id is replaced (its removal
   * event stays queued in its outbox).
   */
  insert(user: UserDoc): Promise<boolean> {
    return insertOverTombstone(this.users, user);
  }

  updateAt(
    id: string,
    expectedVersion: number | undefined,
    changes: Partial<UserDoc>,
    events: EventEnvelope[],
  ): Promise<boolean> {
    const update = { $set: changes };
    return updateAtVersion(this.users, id, expectedVersion, events.length ? withEvents(update, events) : update);
  }

  /** The password hash goes at once: a tombstone can never be logged in to. */
  tombstoneAt(id: string, expectedVersion: number | undefined, events: EventEnvelope[]): Promise<boolean> {
    const update = withEvents({ $set: { _deleted: true }, $unset: { password_hash: '' } }, events);
    return updateAtVersion(this.users, id, expectedVersion, update);
  }

  /** Removes a user at whatever version it is (the relay's tests make tombstones so); the rules use the write path. */
  async tombstone(id: string, event: EventEnvelope): Promise<boolean> {
    const user = await this.byId(id);
    return user !== null && this.tombstoneAt(id, user.version, [event]);
  }

  portrait(id: string): Promise<StoredPortrait | null> {
    return this.portraits.findOne({ _id: id });
  }

  async withPortraits(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.portraits.find({ _id: { $in: ids } }, { projection: { _id: 1 } });
    return new Set(found.map((p) => p._id));
  }

  replacePortrait(portrait: StoredPortrait): Promise<StoredPortrait | null> {
    return this.portraits.findOneAndUpdate({ _id: portrait._id }, portraitUpdate(portrait), {
      upsert: true,
      returnDocument: 'before',
    });
  }

  async removePortrait(id: string): Promise<StoredPortrait | null> {
    const current = await this.portraits.findOne({ _id: id });
    if (current) await this.portraits.deleteOne({ _id: id });
    return current;
  }

  async restorePortrait(id: string, current: string | null, previous: StoredPortrait | null): Promise<void> {
    if (current === null) {
      if (previous) await this.insertPortraitIfNone(previous);
    } else if (previous) {
      await this.portraits.updateOne({ _id: id, revision: current }, portraitUpdate(previous));
    } else {
      await this.portraits.deleteOne({ _id: id, revision: current });
    }
  }

  private async insertPortraitIfNone(portrait: StoredPortrait): Promise<void> {
    try {
      await this.portraits.insertOne(portrait);
    } catch (error) {
      // Another upload came in meanwhile: it stays.
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }
}

/** Writes a portrait's fields over the stored one (a portrait without a revision leaves none). */
function portraitUpdate(portrait: StoredPortrait): Update {
  const { _id, revision, ...fields } = portrait;
  return revision === undefined ? { $set: fields, $unset: { revision: '' } } : { $set: { ...fields, revision } };
}
