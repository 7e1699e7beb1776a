/**
 * `@controlpanels/content-rules`: the content rules (list, create, read, change, remove) and their actions and
 * conditions (`<rule>/action/<index>`), two parts of `@controlpanels` (controlpanels.ts), cms.ManagePortal.
 */
import type { HttpResult } from '@cms/shared';
import { z } from 'zod';
import { ruleFields, ruleUrl, type Rule } from '../domain/rules';
import type { ConfigDeps } from './declarations';
import { endpoint, operation } from './declarations';

const PANEL = 'content-rules';
const ruleId = z.object({ rule: z.string().min(1).max(100) });
const elementKind = ruleId.extend({ kind: z.enum(['action', 'condition']) });
const elementAt = elementKind.extend({ idx: z.coerce.number().int().min(0).max(10_000) });
/** An action or a condition: its type, and the values that type takes (checked against it by the rule book). */
const newElement = z.object({ type: z.string().min(1).max(200) }).passthrough();
/** An element's values to change, or `{"form.button.Move": "_move_up" | "_move_down"}` to reorder it. */
const elementChange = z.record(z.string().max(200), z.unknown());

async function created(rule: Rule, publicUrl: string, deps: ConfigDeps): Promise<HttpResult> {
  return {
    status: 201,
    headers: { Location: ruleUrl(publicUrl, rule._id) },
    body: await deps.rules.render(rule, publicUrl),
  };
}

/** The rules. */
export const contentRulesPanel = endpoint({
  name: 'controlpanels',
  service: 'config',
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The content rules, or one rule with its actions and conditions',
      paths: [PANEL, `${PANEL}/:rule`],
      permission: 'cms.ManagePortal',
      params: ruleId.partial(),
      handle: async (call, deps) => {
        const { rule } = call.params;
        if (rule === undefined) return { status: 200, body: await deps.rules.list(call.publicUrl) };
        return { status: 200, body: await deps.rules.render(await deps.rules.get(rule), call.publicUrl) };
      },
    }),
    POST: operation({
      summary: 'Creates a content rule',
      paths: [PANEL],
      permission: 'cms.ManagePortal',
      body: ruleFields,
      handle: async (call, deps) => created(await deps.rules.create(call.body), call.publicUrl, deps),
    }),
    PATCH: operation({
      summary: 'Changes a content rule',
      paths: [`${PANEL}/:rule`],
      permission: 'cms.ManagePortal',
      params: ruleId,
      body: ruleFields.partial(),
      handle: async (call, deps) => {
        await deps.rules.update(call.params.rule, call.body);
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Deletes a content rule',
      paths: [`${PANEL}/:rule`],
      permission: 'cms.ManagePortal',
      params: ruleId,
      handle: async (call, deps) => {
        await deps.rules.remove(call.params.rule);
        return { status: 204 };
      },
    }),
  },
});

/** A rule's actions and conditions. */
export const ruleElementsPanel = endpoint({
  name: 'controlpanels',
  service: 'config',
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'One action or condition of a content rule, with its schema',
      paths: [`${PANEL}/:rule/:kind/:idx`],
      permission: 'cms.ManagePortal',
      params: elementAt,
      handle: async (call, deps) => {
        const { rule, kind, idx } = call.params;
        return { status: 200, body: await deps.rules.element(rule, kind, idx, call.publicUrl) };
      },
    }),
    POST: operation({
      summary: 'Adds an action or a condition to a content rule (`<rule>/action`, `<rule>/condition`)',
      paths: [`${PANEL}/:rule/:kind`],
      permission: 'cms.ManagePortal',
      params: elementKind,
      body: newElement,
      handle: async (call, deps) =>
        created(await deps.rules.addElement(call.params.rule, call.params.kind, call.body), call.publicUrl, deps),
    }),
    PATCH: operation({
      summary: 'Changes an action or a condition of a content rule, or moves it up or down',
      paths: [`${PANEL}/:rule/:kind/:idx`],
      permission: 'cms.ManagePortal',
      params: elementAt,
      body: elementChange,
      handle: async (call, deps) => {
        const { rule, kind, idx } = call.params;
        await deps.rules.changeElement(rule, kind, idx, call.body);
        return { status: 204 };
      },
    }),
    DELETE: operation({
      summary: 'Removes an action or a condition from a content rule',
      paths: [`${PANEL}/:rule/:kind/:idx`],
      permission: 'cms.ManagePortal',
      params: elementAt,
      handle: async (call, deps) => {
        const { rule, kind, idx } = call.params;
        await deps.rules.removeElement(rule, kind, idx);
        return { status: 204 };
      },
    }),
  },
});
