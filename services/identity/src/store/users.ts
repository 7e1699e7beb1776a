import { insertOverTombstone } from './insert';
import { withEvents, type Collection, type DocumentStore, type EventEnvelope, type Filter } from '@cms/shared';
import type { UserDoc } from '../domain/user';
import type { StoredPortrait, UserQuery, UserStore } from '../domain/users-repository';

/** Tombstones (removed users whose event is not out yet) are invisible to every read and write. */
export const LIVE = { _deleted: { $ne: true } };

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
    if (user || !login.includes('@') || login === login.toLowerCase()) return user;
    return this.users.findOne({ login: login.toLowerCase(), ...LIVE });
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
    if (query.ids) filter._id = { $in: query.ids };
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

  insert(user: UserDoc): Promise<boolean> {
    return insertOverTombstone(this.users, user);
  }

  update(id: string, expectedVersion: number | undefined, changes: Partial<UserDoc>): Promise<UserDoc | null> {
    return this.users.findOneAndUpdate(
      { _id: id, version: expectedVersion ?? { $exists: false }, ...LIVE },
      { $set: changes },
      { returnDocument: 'after', projection: { _outbox: 0 } },
    );
  }

  async tombstone(id: string, event: EventEnvelope): Promise<boolean> {
    const result = await this.users.updateOne(
      { _id: id, ...LIVE },
      withEvents({ $set: { _deleted: true }, $unset: { password_hash: '' }, $inc: { version: 1 } }, [event]),
    );
    return result.matchedCount === 1;
  }

  portrait(id: string): Promise<StoredPortrait | null> {
    return this.portraits.findOne({ _id: id });
  }

  async withPortraits(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.portraits.find({ _id: { $in: ids } }, { projection: { _id: 1 } });
    return new Set(found.map((p) => p._id));
  }

  async setPortrait(portrait: StoredPortrait): Promise<void> {
    const { _id, ...fields } = portrait;
    await this.portraits.updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  async removePortrait(id: string): Promise<void> {
    await this.portraits.deleteOne({ _id: id });
  }
}

/** A case-insensitive substring match, the text taken literally. */
export function contains(text: string): { $regex: string; $options: string } {
  return { $regex: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
}
