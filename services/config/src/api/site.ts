/** `@site`: what every page render needs to know about the site, for any caller who may view it. */
import { siteInfo } from '../domain/site';
import { endpoint, operation } from './declarations';

export const site = endpoint({
  name: 'site',
  service: 'config',
  context: 'site-root',
  cache: 'site',
  operations: {
    GET: operation({
      summary: 'The site’s features and public settings',
      permission: { public: 'every visitor’s page asks it' },
      handle: async (call, { registry, rootTitle }) => {
        const [info, title] = await Promise.all([siteInfo(registry), rootTitle(call.requestId)]);
        // The root's own title, as the original reports it: a PATCH of the root's title leaves the record as is.
        if (title !== null) info['cms.site_title'] = title;
        return { status: 200, body: { '@id': `${call.publicUrl}/@site`, ...info } };
      },
    }),
  },
});
