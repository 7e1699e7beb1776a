import type { Collection, Document, DocumentStore } from '@cms/shared';
import type { FolderAssignments, Rule, RuleStore } from '../domain/rules';

type RuleDoc = Rule & Document;
type AssignmentsDoc = FolderAssignments & Document;
interface CounterDoc extends Document {
  _id: string;
  n: number;
}

/** Rules (`content_rules`), their assignments by folder UID (`rule_assignments`), and the id counter. */
export class StoreRules implements RuleStore {
  private readonly rules: Collection<RuleDoc>;
  private readonly assignments: Collection<AssignmentsDoc>;
  private readonly counters: Collection<CounterDoc>;

  constructor(store: DocumentStore) {
    this.rules = store.collection<RuleDoc>('content_rules');
    this.assignments = store.collection<AssignmentsDoc>('rule_assignments');
    this.counters = store.collection<CounterDoc>('rule_counters');
  }

  async nextId(): Promise<string> {
    const counter = await this.counters.findOneAndUpdate(
      { _id: 'rule' },
      { $inc: { n: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    return `rule-${counter?.n ?? 1}`;
  }

  async all(): Promise<Rule[]> {
    const found = await this.rules.find({});
    // rule-2 before rule-10: the order they were made in.
    return found.sort((a, b) => Number(a._id.slice(5)) - Number(b._id.slice(5)));
  }

  get(id: string): Promise<Rule | null> {
    return this.rules.findOne({ _id: id });
  }

  async insert(rule: Rule): Promise<void> {
    await this.rules.insertOne({ ...rule });
  }

  async replace(rule: Rule): Promise<void> {
    const { _id, ...fields } = rule;
    await this.rules.updateOne({ _id }, { $set: fields });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.rules.deleteOne({ _id: id })).deletedCount > 0;
  }

  assignmentsOf(folderUid: string): Promise<FolderAssignments | null> {
    return this.assignments.findOne({ _id: folderUid });
  }

  assignmentsIn(folderUids: readonly string[]): Promise<FolderAssignments[]> {
    return this.assignments.find({ _id: { $in: [...folderUids] } });
  }

  async writeAssignments(doc: FolderAssignments): Promise<void> {
    const { _id, ...fields } = doc;
    await this.assignments.updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  // Folders with rules are few (a site has tens at most): filtered here rather than by a query on array members.
  async foldersWith(ruleId: string): Promise<FolderAssignments[]> {
    return (await this.assignments.find({})).filter((doc) => doc.rules.some((a) => a.id === ruleId));
  }

  async anyAssigned(): Promise<boolean> {
    return (await this.assignments.find({})).some((doc) => doc.rules.length > 0);
  }
}
