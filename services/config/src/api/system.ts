/** `@system`: versions of what the site runs on, for Managers. */
import { forbidden } from '@cms/shared';
import { endpoint, operation } from './declarations';

export const system = endpoint({
  name: 'system',
  service: 'config',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'Versions of the service, Node, the store and the broker (Manager)',
      permission: 'cms.ManagePortal',
      // Site Administrators manage the site, not the servers it runs on.
      guard: (call) => {
        if (!call.principal?.roles.includes('Manager'))
          throw forbidden('Only a Manager may see the system information');
      },
      handle: async (call, { system }) => ({
        status: 200,
        body: { '@id': `${call.publicUrl}/@system`, ...system },
      }),
    }),
  },
});
