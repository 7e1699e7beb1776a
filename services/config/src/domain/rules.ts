/**
 * Content rules: a trigger (an event of `cms.contentrules.events`), conditions and actions, kept by the config
 * service; assigned to folders (by UID), where they run on the events of the content inside.
 */
import { badRequest, clip, notFound, RULE_EVENTS } from '@cms/shared';
import { z } from 'zod';
import { addable, elementSchema, elementTypes, findElementType, type ElementKind } from './rule-elements';

/** A token or a title of the events vocabulary (clients send either), as its token. */
export function eventToken(value: string): string | undefined {
  return RULE_EVENTS.find(([token, title]) => token === value || title === value)?.[0];
}

export function eventTitle(token: string): string {
  return RULE_EVENTS.find(([t]) => t === token)?.[1] ?? token;
}

export interface RuleElement {
  type: string;
  values: Record<string, unknown>;
}

export interface Rule {
  /** `rule-<n>`. */
  _id: string;
  title: string;
  description: string;
  /** A token of RULE_EVENTS. */
  event: string;
  enabled: boolean;
  cascading: boolean;
  stop: boolean;
  actions: RuleElement[];
  conditions: RuleElement[];
}

/** One rule assigned to a folder. */
export interface Assignment {
  id: string;
  enabled: boolean;
  bubbles: boolean;
}

/** The rules assigned to one folder, in their order. */
export interface FolderAssignments {
  _id: string;
  path: string;
  rules: Assignment[];
}

/** Where rules and their assignments are kept (store/rules.ts). */
export interface RuleStore {
  nextId(): Promise<string>;
  all(): Promise<Rule[]>;
  get(id: string): Promise<Rule | null>;
  insert(rule: Rule): Promise<void>;
  replace(rule: Rule): Promise<void>;
  remove(id: string): Promise<boolean>;
  assignmentsOf(folderUid: string): Promise<FolderAssignments | null>;
  assignmentsIn(folderUids: readonly string[]): Promise<FolderAssignments[]>;
  writeAssignments(doc: FolderAssignments): Promise<void>;
  /** Folders a rule is assigned to. */
  foldersWith(ruleId: string): Promise<FolderAssignments[]>;
  /** Whether any rule is assigned anywhere (the consumer's fast path). */
  anyAssigned(): Promise<boolean>;
}

export const ruleFields = z
  .object({
    title: z.string().min(1).max(500),
    description: z.string().max(5000).default(''),
    event: z.string().min(1).max(300),
    enabled: z.boolean().default(true),
    cascading: z.boolean().default(false),
    stop: z.boolean().default(false),
  })
  .strict();

export type RuleFields = z.infer<typeof ruleFields>;

const MOVE_BUTTON = 'form.button.Move';

export function ruleUrl(publicUrl: string, id?: string): string {
  return `${publicUrl}/@controlpanels/content-rules${id === undefined ? '' : `/${id}`}`;
}

function checkedEvent(value: string): string {
  const token = eventToken(value);
  if (!token) throw badRequest(`Unknown event "${clip(value)}"`, [{ field: 'event', message: 'unknown event' }]);
  return token;
}

/** The rules' control panel: create, read, change and delete rules and their elements. */
export class RuleBook {
  constructor(private readonly store: RuleStore) {}

  async list(publicUrl: string) {
    const rules = await this.store.all();
    const items = await Promise.all(
      rules.map(async (rule) => {
        const assigned = (await this.store.foldersWith(rule._id)).length > 0;
        return {
          '@id': ruleUrl(publicUrl, rule._id),
          assigned,
          description: rule.description,
          enabled: rule.enabled,
          id: rule._id,
          row_class: `trigger-${triggerClass(rule.event)} state-${rule.enabled ? 'enabled' : 'disabled'} assignment-${assigned ? 'assigned' : 'unassigned'}`,
          title: rule.title,
          trigger: eventTitle(rule.event),
        };
      }),
    );
    return { '@id': ruleUrl(publicUrl), group: 'Content', items: [items], title: 'Content Rules' };
  }

  async create(fields: RuleFields): Promise<Rule> {
    const rule: Rule = {
      _id: await this.store.nextId(),
      ...fields,
      event: checkedEvent(fields.event),
      actions: [],
      conditions: [],
    };
    await this.store.insert(rule);
    return rule;
  }

  async get(id: string): Promise<Rule> {
    const rule = await this.store.get(id);
    if (!rule) throw notFound(`No content rule "${clip(id)}"`);
    return rule;
  }

  async render(rule: Rule, publicUrl: string) {
    const folders = await this.store.foldersWith(rule._id);
    return {
      '@id': ruleUrl(publicUrl, rule._id),
      actions: renderElements(rule, 'action', publicUrl),
      addable_actions: addable('action', publicUrl),
      addable_conditions: addable('condition', publicUrl),
      assignments: folders.map((f) => ({ '@id': `${publicUrl}${f.path === '/' ? '' : f.path}`, path: f.path })),
      cascading: rule.cascading,
      conditions: renderElements(rule, 'condition', publicUrl),
      description: rule.description,
      enabled: rule.enabled,
      event: eventTitle(rule.event),
      group: 'Content',
      id: rule._id,
      stop: rule.stop,
      title: rule.title,
    };
  }

  async update(id: string, fields: Partial<RuleFields>): Promise<void> {
    const rule = await this.get(id);
    const event = fields.event === undefined ? rule.event : checkedEvent(fields.event);
    await this.store.replace({ ...rule, ...fields, event });
  }

  async remove(id: string): Promise<void> {
    if (!(await this.store.remove(id))) throw notFound(`No content rule "${clip(id)}"`);
    for (const folder of await this.store.foldersWith(id)) {
      await this.store.writeAssignments({ ...folder, rules: folder.rules.filter((a) => a.id !== id) });
    }
  }

  async addElement(id: string, kind: ElementKind, body: unknown): Promise<Rule> {
    const rule = await this.get(id);
    const input = z
      .object({ type: z.string().min(1).max(200) })
      .passthrough()
      .safeParse(body);
    if (!input.success)
      throw badRequest(`Name the ${kind} to add with "type"`, [{ field: 'type', message: 'required' }]);
    const { type: typeId, ...values } = input.data;
    const type = findElementType(kind, typeId);
    if (!type) throw badRequest(`Unknown ${kind} "${clip(typeId)}"`, [{ field: 'type', message: 'unknown' }]);
    const element = { type: type.id, values: validateElement(kind, type.id, values) };
    const next = { ...rule, ...elementsOf(rule, kind, [...listOf(rule, kind), element]) };
    await this.store.replace(next);
    return next;
  }

  async element(id: string, kind: ElementKind, index: number, publicUrl: string) {
    const rule = await this.get(id);
    const element = elementAt(rule, kind, index);
    const type = findElementType(kind, element.type)!;
    return {
      '@id': `${ruleUrl(publicUrl, id)}/${kind}/${index}`,
      '@schema': elementSchema(type, publicUrl),
      ...element.values,
    };
  }

  /** A PATCH of an element: `{"form.button.Move": "_move_up" | "_move_down"}` reorders it, anything else edits it. */
  async changeElement(id: string, kind: ElementKind, index: number, body: unknown): Promise<void> {
    const rule = await this.get(id);
    const element = elementAt(rule, kind, index);
    const list = [...listOf(rule, kind)];
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (MOVE_BUTTON in record) {
      const step = record[MOVE_BUTTON] === '_move_up' ? -1 : record[MOVE_BUTTON] === '_move_down' ? 1 : 0;
      if (step === 0) throw badRequest(`"${MOVE_BUTTON}" is "_move_up" or "_move_down"`);
      const to = index + step;
      if (to < 0 || to >= list.length) throw badRequest(`The ${kind} cannot move further`);
      [list[index], list[to]] = [list[to]!, list[index]!];
    } else {
      const values = validateElement(kind, element.type, { ...element.values, ...record });
      list[index] = { type: element.type, values };
    }
    await this.store.replace({ ...rule, ...elementsOf(rule, kind, list) });
  }

  async removeElement(id: string, kind: ElementKind, index: number): Promise<void> {
    const rule = await this.get(id);
    elementAt(rule, kind, index);
    const list = listOf(rule, kind).filter((_, i) => i !== index);
    await this.store.replace({ ...rule, ...elementsOf(rule, kind, list) });
  }
}

function triggerClass(token: string): string {
  return (token.split('.').pop() ?? token).toLowerCase();
}

function listOf(rule: Rule, kind: ElementKind): RuleElement[] {
  return kind === 'action' ? rule.actions : rule.conditions;
}

function elementsOf(rule: Rule, kind: ElementKind, list: RuleElement[]): Partial<Rule> {
  return kind === 'action' ? { actions: list } : { conditions: list };
}

function elementAt(rule: Rule, kind: ElementKind, index: number): RuleElement {
  const element = listOf(rule, kind)[index];
  if (!element) throw notFound(`Rule "${rule._id}" has no ${kind} ${index}`);
  return element;
}

function validateElement(kind: ElementKind, typeId: string, values: Record<string, unknown>): Record<string, unknown> {
  const type = findElementType(kind, typeId)!;
  const parsed = type.fields.safeParse(values);
  if (!parsed.success) {
    const errors = parsed.error.issues.slice(0, 10).map((i) => ({ field: i.path.join('.'), message: clip(i.message) }));
    throw badRequest(`Invalid fields for ${type.title}`, errors);
  }
  return parsed.data;
}

function renderElements(rule: Rule, kind: ElementKind, publicUrl: string) {
  const list = listOf(rule, kind);
  return list.map((element, idx) => {
    const type = elementTypes(kind).find((t) => t.id === element.type);
    return {
      description: type?.description ?? '',
      editview: type?.editable ? `${publicUrl}/++rule++${rule._id}/++${kind}++${idx}/edit` : null,
      first: idx === 0,
      idx,
      last: idx === list.length - 1,
      summary: type?.summary(element.values) ?? '',
      title: type?.title ?? element.type,
    };
  });
}
