/** `@controlpanels`: the site's settings as forms over registry records (cms.ManagePortal). */
import { clip, notFound, type Translate } from '@cms/shared';
import { z } from 'zod';
import {
  findPanel,
  panelData,
  panelSchema,
  panelSummary,
  panelUrl,
  PANELS,
  updatePanel,
  type PanelDefinition,
} from '../domain/panels';
import { changeType, createType, readTypes, removeType, retitleTypes, typesPanelPath } from './cms-types-panel';
import { addRuleOrElement, changeRuleOrElement, readRules, removeRuleOrElement } from './content-rules-panel';
import { endpoint, operation } from './declarations';

const panelId = z.object({ id: z.string().min(1).max(100) });
/** The content rules panel's sub-paths: a rule, and its actions and conditions (`action/<index>`). */
const rulePath = panelId.extend({
  rule: z.string().min(1).max(100).optional(),
  kind: z.enum(['action', 'condition']).optional(),
  idx: z.coerce.number().int().min(0).max(10_000).optional(),
});
const RULE_PATHS = [':id/:rule', ':id/:rule/:kind', ':id/:rule/:kind/:idx'];

/** A panel's title and group in the caller's language. */
function translatedNames(panel: PanelDefinition, translate: Translate) {
  return { group: translate(panel.group), title: translate(panel.title) };
}

function rulesOnly(id: string): void {
  if (id !== 'content-rules') throw notFound(`The ${clip(id)} panel has no sub-paths`);
}

export const controlpanels = endpoint({
  name: 'controlpanels',
  service: 'config',
  // The panels belong to the site.
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The panels (id, group, title), or one panel with its schema and data',
      paths: ['', ':id', ...RULE_PATHS],
      permission: 'cms.ManagePortal',
      params: rulePath.partial(),
      handle: async (call, deps) => {
        const { registry } = deps;
        const types = typesPanelPath(call.params);
        if (types) return readTypes(call, types.type, deps);
        if (call.params.id !== undefined && call.params.rule !== undefined) {
          rulesOnly(call.params.id);
          return readRules(call.params, call.publicUrl, deps);
        }
        if (call.params.id === undefined) {
          return {
            status: 200,
            body: PANELS.filter((p) => p.listed !== false).map((p) => ({
              ...panelSummary(p, call.publicUrl),
              ...translatedNames(p, call.translator.translate),
            })),
          };
        }
        const panel = findPanel(call.params.id);
        const base = {
          '@id': panelUrl(call.publicUrl, panel.id),
          ...translatedNames(panel, call.translator.translate),
        };
        if (panel.kind === 'content-rules') return readRules({}, call.publicUrl, deps);
        if (panel.kind === 'cms-types') {
          throw notFound('The content types panel is served with the content types, which this site does not edit yet');
        }
        return {
          status: 200,
          body: {
            ...base,
            data: await panelData(panel, registry),
            schema: panelSchema(panel, call.publicUrl),
          },
        };
      },
    }),
    POST: operation({
      summary: 'Creates a content rule, or adds an action or a condition to one (`<rule>/action`)',
      paths: [':id', ':id/:rule/:kind'],
      permission: 'cms.ManagePortal',
      params: rulePath,
      body: z.unknown(),
      handle: async (call, deps) => {
        const types = typesPanelPath(call.params);
        if (types && types.type === undefined) return createType(call, call.body, deps);
        rulesOnly(call.params.id);
        return addRuleOrElement(call.params, call.body, call.publicUrl, deps);
      },
    }),
    DELETE: operation({
      summary: 'Deletes a content rule, or one of its actions or conditions',
      paths: RULE_PATHS,
      permission: 'cms.ManagePortal',
      params: rulePath,
      handle: async (call, deps) => {
        const types = typesPanelPath(call.params);
        if (types?.type !== undefined) return removeType(call, types.type, deps);
        rulesOnly(call.params.id);
        return removeRuleOrElement(call.params, deps);
      },
    }),
    PATCH: operation({
      summary: 'Writes some of a panel’s fields to the registry (all or nothing), or changes a content rule',
      paths: [':id', ...RULE_PATHS],
      permission: 'cms.ManagePortal',
      params: rulePath,
      body: z.unknown(),
      handle: async (call, deps) => {
        const { registry } = deps;
        const types = typesPanelPath(call.params);
        if (types) {
          return types.type === undefined
            ? retitleTypes(call, call.body, deps)
            : changeType(call, types.type, call.body, deps);
        }
        if (call.params.rule !== undefined) {
          rulesOnly(call.params.id);
          return changeRuleOrElement(call.params, call.body, deps);
        }
        const panel = findPanel(call.params.id);
        if (panel.kind !== undefined && panel.kind !== 'records') {
          throw notFound(`The ${panel.id} panel has no fields to write here`);
        }
        await updatePanel(panel, call.body, registry, call.requestId);
        return { status: 204 };
      },
    }),
  },
});
