/** `@controlpanels`: the site's settings as forms over registry records (cms.ManagePortal). */
import { notFound } from '@cms/shared';
import { z } from 'zod';
import { findPanel, panelData, panelSchema, panelSummary, panelUrl, PANELS, updatePanel } from '../domain/panels';
import { endpoint, operation } from './declarations';

const panelId = z.object({ id: z.string().min(1).max(100) });

export const controlpanels = endpoint({
  name: 'controlpanels',
  service: 'config',
  // The panels belong to the site.
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The panels (id, group, title), or one panel with its schema and data',
      paths: ['', ':id'],
      permission: 'cms.ManagePortal',
      params: panelId.partial(),
      handle: async (call, { registry }) => {
        if (call.params.id === undefined) {
          return {
            status: 200,
            body: PANELS.filter((p) => p.listed !== false).map((p) => panelSummary(p, call.publicUrl)),
          };
        }
        const panel = findPanel(call.params.id);
        const base = { '@id': panelUrl(call.publicUrl, panel.id), group: panel.group, title: panel.title };
        if (panel.kind === 'content-rules') {
          // Rules are not stored yet (their editing is separate work): the panel lists none.
          return { status: 200, body: { ...base, items: [[]] } };
        }
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
    PATCH: operation({
      summary: 'Writes some of a panel’s fields to the registry; all or nothing',
      paths: [':id'],
      permission: 'cms.ManagePortal',
      params: panelId,
      body: z.unknown(),
      handle: async (call, { registry }) => {
        const panel = findPanel(call.params.id);
        if (panel.kind !== undefined && panel.kind !== 'records') {
          throw notFound(`The ${panel.id} panel has no fields to write here`);
        }
        await updatePanel(panel, call.body, registry);
        return { status: 204 };
      },
    }),
  },
});
