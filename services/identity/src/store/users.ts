import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import type { UserDoc } from '../domain/user';

export class UsersRepository {
  readonly users: Collection<UserDoc>;

  constructor(store: DocumentStore) {
    this.users = store.collection<UserDoc>('users');
  }

  async ensureIndexes(): Promise<void> {
    await this.users.createIndex({ login: 1 }, { unique: true });
  }

  byLogin(login: string): Promise<UserDoc | null> {
    return this.users.findOne({ login });
  }

  byId(id: string): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  /** False when the id or login is taken. */
  async insert(user: UserDoc): Promise<boolean> {
    try {
      await this.users.insertOne(user);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }
}
