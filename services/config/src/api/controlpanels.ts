/**
 * `@controlpanels`: the list of the site's panels, and the panels that are forms over registry records (read and
 * written through the registry, cms.ManagePortal). The other kinds of panel are parts of the same endpoint, declared
 * beside their handlers: the content types (cms-types-panel.ts) and the content rules (content-rules-panel.ts).
 */
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
import { endpoint, operation } from './declarations';

const panelId = z.object({ id: z.string().min(1).max(100) });

/** A panel's title and group in the caller's language. */
function translatedNames(panel: PanelDefinition, translate: Translate) {
  return { group: translate(panel.group), title: translate(panel.title) };
}

/** A panel of registry records; 404 for any other (the other kinds answer at their own literal sub-paths). */
function recordsPanel(id: string): PanelDefinition {
  const panel = findPanel(id);
  if (panel.kind !== undefined && panel.kind !== 'records') throw notFound(`The ${clip(id)} panel has no fields here`);
  return panel;
}

export const controlpanels = endpoint({
  name: 'controlpanels',
  service: 'config',
  // The panels belong to the site.
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The panels (id, group, title), or one panel of registry records with its schema and data',
      paths: ['', ':id'],
      permission: 'cms.ManagePortal',
      params: panelId.partial(),
      handle: async (call, { registry }) => {
        if (call.params.id === undefined) {
          return {
            status: 200,
            body: PANELS.filter((p) => p.listed !== false).map((p) => ({
              ...panelSummary(p, call.publicUrl),
              ...translatedNames(p, call.translator.translate),
            })),
          };
        }
        const panel = recordsPanel(call.params.id);
        return {
          status: 200,
          body: {
            '@id': panelUrl(call.publicUrl, panel.id),
            ...translatedNames(panel, call.translator.translate),
            data: await panelData(panel, registry),
            schema: panelSchema(panel, call.publicUrl),
          },
        };
      },
    }),
    PATCH: operation({
      summary: 'Writes some of a panel’s fields to the registry (all or nothing)',
      paths: [':id'],
      permission: 'cms.ManagePortal',
      params: panelId,
      // Field name → new value; each value is checked against its record's schema (all or nothing).
      body: z.record(z.string().max(200), z.unknown()),
      handle: async (call, { registry }) => {
        await updatePanel(recordsPanel(call.params.id), call.body, registry, call.requestId);
        return { status: 204 };
      },
    }),
  },
});
