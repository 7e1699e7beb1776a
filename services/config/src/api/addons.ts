/**
 * `@addons`: the add-ons a site may install. This service has none (its features are built in), so the list is
 * honestly empty, in the original platform's shape; acting on an add-on answers 404, as for an unknown one.
 */
import { clip, notFound } from '@cms/shared';
import { endpoint, operation } from './declarations';

export const addons = endpoint({
  name: 'addons',
  service: 'config',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The installable add-ons: none',
      paths: ['', ':addon'],
      permission: 'cms.ManagePortal',
      handle: async (call) => {
        if (call.params.addon !== undefined) throw notFound(`No such add-on: ${clip(call.params.addon)}`);
        return { status: 200, body: { '@id': `${call.publicUrl}/@addons`, items: [], items_total: 0 } };
      },
    }),
    POST: operation({
      summary: 'Installs, uninstalls or upgrades an add-on: there are none (404)',
      paths: [':addon/:action'],
      permission: 'cms.ManagePortal',
      handle: async (call) => {
        throw notFound(`No such add-on: ${clip(call.params.addon)}`);
      },
    }),
  },
});
