/** `<folder>/@content-rules`: which rules a folder has, switched on or off, and applied to its subfolders or not. */
import { badRequest, clip, notFound } from '@cms/shared';
import { containersOf } from './rule-matching';
import { eventTitle, type Assignment, type FolderAssignments, type Rule, type RuleStore } from './rules';

/** A folder as the endpoint knows it: its path, and its UID (`/` stands for the site root's). */
export interface Folder {
  key: string;
  path: string;
}

/** The folders above one, nearest first, with their keys (content's UIDs). */
export type FoldersAbove = (path: string) => Promise<Folder[]>;

export type AssignmentChange = 'enable' | 'disable' | 'bubble' | 'nobubble';

const CHANGE_MESSAGES: Record<AssignmentChange, (ids: string) => string> = {
  enable: (ids) => `Successfully enabled rules ${ids}`,
  disable: (ids) => `Successfully disabled rules ${ids}`,
  bubble: (ids) => `Successfully applied ${ids} to subfolders`,
  nobubble: (ids) => `Disabled apply to subfolders for ${ids}`,
};

/** As the reference prints a list of ids: `['rule-1', 'rule-2']`. */
function idList(ids: readonly string[]): string {
  return `[${ids.map((id) => `'${clip(id, 100)}'`).join(', ')}]`;
}

export class RuleAssignments {
  constructor(private readonly store: RuleStore) {}

  async list(folder: Folder, above: FoldersAbove, publicUrl: string) {
    const rules = new Map((await this.store.all()).map((r) => [r._id, r]));
    const here = (await this.store.assignmentsOf(folder.key))?.rules ?? [];
    const entry = (rule: Rule, assignment: Assignment) => ({
      bubbles: assignment.bubbles,
      description: rule.description,
      enabled: assignment.enabled,
      global_enabled: rule.enabled,
      id: rule._id,
      title: rule.title,
      trigger: eventTitle(rule.event),
      url: `${publicUrl}/++rule++${rule._id}/@@manage-elements`,
    });
    const assigned = here.flatMap((a) => {
      const rule = rules.get(a.id);
      return rule ? [entry(rule, a)] : [];
    });
    const acquired: ReturnType<typeof entry>[] = [];
    const seen = new Set(here.map((a) => a.id));
    for (const parent of folder.path === '/' ? [] : await above(folder.path)) {
      for (const a of (await this.store.assignmentsOf(parent.key))?.rules ?? []) {
        const rule = rules.get(a.id);
        if (!rule || !a.bubbles || seen.has(a.id)) continue;
        seen.add(a.id);
        acquired.push({
          ...entry(rule, a),
          url: `${publicUrl}${parent.path === '/' ? '' : parent.path}/@content-rules`,
        });
      }
    }
    const assignable = [...rules.values()]
      .filter((r) => !here.some((a) => a.id === r._id))
      .map((r) => ({ description: r.description, id: r._id, title: r.title, trigger: eventTitle(r.event) }));
    return { 'content-rules': { acquired_rules: acquired, assignable_rules: assignable, assigned_rules: assigned } };
  }

  async assign(folder: Folder, ruleId: string): Promise<string> {
    if (!(await this.store.get(ruleId))) throw notFound(`No content rule "${clip(ruleId)}"`);
    const doc = await this.folderDoc(folder);
    if (!doc.rules.some((a) => a.id === ruleId)) {
      // Enabled here, not yet for subfolders: as the reference assigns a rule.
      await this.store.writeAssignments({
        ...doc,
        rules: [...doc.rules, { id: ruleId, enabled: true, bubbles: false }],
      });
    }
    return `Successfully assigned the rule ${ruleId}`;
  }

  async change(folder: Folder, change: AssignmentChange, ruleIds: readonly string[]): Promise<string> {
    const doc = await this.folderDoc(folder);
    const rules = doc.rules.map((a) => {
      if (!ruleIds.includes(a.id)) return a;
      if (change === 'enable' || change === 'disable') return { ...a, enabled: change === 'enable' };
      return { ...a, bubbles: change === 'bubble' };
    });
    await this.store.writeAssignments({ ...doc, rules });
    return CHANGE_MESSAGES[change](idList(ruleIds));
  }

  async move(folder: Folder, ruleId: string, operation: 'move_up' | 'move_down'): Promise<string> {
    const doc = await this.folderDoc(folder);
    const index = doc.rules.findIndex((a) => a.id === ruleId);
    if (index < 0) throw badRequest(`Rule "${clip(ruleId)}" is not assigned here`);
    const to = index + (operation === 'move_up' ? -1 : 1);
    const rules = [...doc.rules];
    if (to >= 0 && to < rules.length) [rules[index], rules[to]] = [rules[to]!, rules[index]!];
    await this.store.writeAssignments({ ...doc, rules });
    return `Successfully applied the ${operation}`;
  }

  async unassign(folder: Folder, ruleIds: readonly string[]): Promise<void> {
    const doc = await this.folderDoc(folder);
    await this.store.writeAssignments({ ...doc, rules: doc.rules.filter((a) => !ruleIds.includes(a.id)) });
  }

  private async folderDoc(folder: Folder): Promise<FolderAssignments> {
    const stored = await this.store.assignmentsOf(folder.key);
    // The path is shown only; it follows the folder when it moves.
    return { _id: folder.key, path: folder.path, rules: stored?.rules ?? [] };
  }
}

/** The folders above a path, looked up by path (`uidOf`), nearest first; those content no longer has are left out. */
export function foldersAbove(uidOf: (path: string) => Promise<string | null>): FoldersAbove {
  return async (path) => {
    const out: Folder[] = [];
    for (const container of containersOf(path)) {
      const key = container === '/' ? '/' : await uidOf(container);
      if (key) out.push({ key, path: container });
    }
    return out;
  };
}
