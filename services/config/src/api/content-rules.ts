/** `<folder>/@content-rules`: the rules assigned to a folder, acquired from above, and assignable (cms.ManagePortal). */
import { badRequest } from '@cms/shared';
import { z } from 'zod';
import type { AssignmentChange, Folder } from '../domain/rule-assignments';
import type { ConfigDeps } from './declarations';
import { endpoint, operation } from './declarations';

const ruleId = z.string().min(1).max(100);
const ruleIds = z.array(ruleId).min(1).max(200);

const BUTTONS: Record<string, AssignmentChange> = {
  'form.button.Enable': 'enable',
  'form.button.Disable': 'disable',
  'form.button.Bubble': 'bubble',
  'form.button.NoBubble': 'nobubble',
};

const patchBody = z.union([
  z.object({ operation: z.enum(['move_up', 'move_down']), rule_id: ruleId }),
  z
    .object({
      rule_ids: ruleIds,
      'form.button.Enable': z.literal(true).optional(),
      'form.button.Disable': z.literal(true).optional(),
      'form.button.Bubble': z.literal(true).optional(),
      'form.button.NoBubble': z.literal(true).optional(),
    })
    .strict(),
]);

function folderOf(call: { context: { uid: string | null; path: string } }): Folder {
  return { key: call.context.uid ?? '/', path: call.context.path };
}

async function check(deps: ConfigDeps, ids: readonly string[]): Promise<void> {
  for (const id of ids) await deps.rules.get(id);
}

export const contentRules = endpoint({
  name: 'content-rules',
  service: 'config',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The rules assigned here, acquired from the folders above, and assignable',
      permission: 'cms.ManagePortal',
      handle: async (call, deps) => ({
        status: 200,
        body: await deps.assignments.list(folderOf(call), deps.foldersAbove, call.publicUrl),
      }),
    }),
    POST: operation({
      summary: 'Assigns a rule here',
      paths: [':rule'],
      permission: 'cms.ManagePortal',
      params: z.object({ rule: ruleId }),
      handle: async (call, deps) => ({
        status: 200,
        body: { message: await deps.assignments.assign(folderOf(call), call.params.rule) },
      }),
    }),
    PATCH: operation({
      summary: 'Enables, disables, applies to subfolders or not, or moves assigned rules',
      permission: 'cms.ManagePortal',
      body: patchBody,
      handle: async (call, deps) => {
        const body = call.body;
        if ('operation' in body) {
          return {
            status: 200,
            body: { message: await deps.assignments.move(folderOf(call), body.rule_id, body.operation) },
          };
        }
        const buttons = Object.keys(BUTTONS).filter((b) => b in body);
        if (buttons.length !== 1) throw badRequest(`Send one of ${Object.keys(BUTTONS).join(', ')} with rule_ids`);
        await check(deps, body.rule_ids);
        const message = await deps.assignments.change(folderOf(call), BUTTONS[buttons[0]!]!, body.rule_ids);
        return { status: 200, body: { message } };
      },
    }),
    DELETE: operation({
      summary: 'Unassigns rules from here',
      permission: 'cms.ManagePortal',
      body: z.object({ rule_ids: ruleIds }),
      handle: async (call, deps) => {
        await deps.assignments.unassign(folderOf(call), call.body.rule_ids);
        return { status: 204 };
      },
    }),
  },
});
