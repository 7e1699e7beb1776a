import type { Collection, DocumentStore } from '@cms/shared';
import type { ResetTokenRecord, ResetTokenStore } from '../domain/password-reset';

/** Pending password reset tokens (collection `password_resets`), by digest. */
export class PasswordResetsRepository implements ResetTokenStore {
  private readonly tokens: Collection<ResetTokenRecord>;

  constructor(store: DocumentStore) {
    this.tokens = store.collection<ResetTokenRecord>('password_resets');
  }

  async ensureIndexes(): Promise<void> {
    await this.tokens.createIndex({ expires: 1 });
  }

  async save(record: ResetTokenRecord): Promise<void> {
    await this.tokens.insertOne(record);
  }

  async take(digest: string, userId: string): Promise<ResetTokenRecord | null> {
    const found = await this.tokens.findOne({ _id: digest, user_id: userId });
    if (!found) return null;
    // Only the caller whose delete removed it may use it: two concurrent uses of one token, one wins.
    const { deletedCount } = await this.tokens.deleteOne({ _id: digest, user_id: userId });
    return deletedCount === 1 ? found : null;
  }

  async dropAll(userId: string): Promise<void> {
    await this.tokens.deleteMany({ user_id: userId });
  }

  async purge(now: string): Promise<void> {
    await this.tokens.deleteMany({ expires: { $lt: now } });
  }
}
