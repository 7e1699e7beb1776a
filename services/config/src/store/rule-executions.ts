import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@cms/shared';
import type { Execution, ExecutionStore, Notification, NotificationStore } from '../domain/rule-runner';

type ExecutionDoc = Execution & Document;
type NotificationDoc = Notification & Document;

/** Executions of rules (`rule_executions`, keyed by rule and event) and Notify messages (`rule_notifications`). */
export class StoreRuleExecutions implements ExecutionStore, NotificationStore {
  private readonly executions: Collection<ExecutionDoc>;
  private readonly notifications: Collection<NotificationDoc>;

  constructor(store: DocumentStore) {
    this.executions = store.collection<ExecutionDoc>('rule_executions');
    this.notifications = store.collection<NotificationDoc>('rule_notifications');
  }

  async ensureIndexes(): Promise<void> {
    await this.executions.createIndex({ done: 1, at: 1 });
  }

  async record(execution: Execution): Promise<boolean> {
    try {
      await this.executions.insertOne({ ...execution });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  pending(limit: number, owner: string, now: number): Promise<Execution[]> {
    return this.executions.find({ done: false, ...claimableBy(owner, now) }, { sort: { at: 1 }, limit });
  }

  claim(id: string, owner: string, now: number, leaseMs: number): Promise<Execution | null> {
    return this.executions.findOneAndUpdate(
      { _id: id, done: false, ...claimableBy(owner, now) },
      { $set: { claimed_by: owner, claimed_until: now + leaseMs } },
      { returnDocument: 'after' },
    );
  }

  async advance(id: string, next: number, done: boolean, error?: string): Promise<void> {
    await this.executions.updateOne({ _id: id }, { $set: { next, done, ...(error === undefined ? {} : { error }) } });
  }

  async purge(before: string): Promise<number> {
    return (await this.executions.deleteMany({ done: true, at: { $lt: before } })).deletedCount;
  }

  async get(id: string): Promise<Execution | null> {
    return this.executions.findOne({ _id: id });
  }

  async add(notification: Notification): Promise<void> {
    // One per execution and action: a repeated action does not repeat the message.
    const _id = `${notification.ruleId}~${notification.eventId}~${notification.message}`;
    await this.notifications.updateOne({ _id }, { $set: { ...notification } }, { upsert: true });
  }

  listNotifications(): Promise<Notification[]> {
    return this.notifications.find({}, { sort: { at: 1 } });
  }
}

/** Not claimed, or the claim has run out, or it is `owner`'s own. */
function claimableBy(owner: string, now: number) {
  return { $or: [{ claimed_until: { $exists: false } }, { claimed_until: { $lt: now } }, { claimed_by: owner }] };
}
