import type { Collection, DocumentStore } from '@cms/shared';
import type { AppliedRuleActions } from '../api/rule-actions';

interface AppliedRuleActionRecord {
  /** The action's key (`ApplyRuleActionRequest.action_key`). */
  _id: string;
  /** Its answer. */
  path: string;
  at: string;
  [key: string]: unknown;
}

/**
 * How long an applied action is remembered: longer than any runner retries it (the rules runner keeps finished
 * executions as long, services/config/src/domain/rule-runner.ts KEEP_DONE_MS).
 */
const KEEP_MS = 7 * 24 * 3600_000;
/** Old records are dropped on one recording in this many. */
const PURGE_EVERY = 500;

/** The rule actions content has taken, by key (collection `applied_rule_actions`). */
export class StoreAppliedRuleActions implements AppliedRuleActions {
  private readonly records: Collection<AppliedRuleActionRecord>;
  private recorded = 0;

  constructor(store: DocumentStore) {
    this.records = store.collection<AppliedRuleActionRecord>('applied_rule_actions');
  }

  async ensureIndexes(): Promise<void> {
    await this.records.createIndex({ at: 1 });
  }

  async answerOf(key: string): Promise<string | null> {
    return (await this.records.findOne({ _id: key }))?.path ?? null;
  }

  async record(key: string, path: string): Promise<void> {
    const at = new Date().toISOString();
    await this.records.updateOne({ _id: key }, { $set: { path, at } }, { upsert: true });
    if (++this.recorded % PURGE_EVERY === 0) {
      await this.records.deleteMany({ at: { $lt: new Date(Date.now() - KEEP_MS).toISOString() } });
    }
  }
}
