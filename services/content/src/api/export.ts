/**
 * `@export` (plone.exportimport 2's): the whole site as a ZIP of plone.exportimport's layout, the tree that
 * `npm run export` writes into a folder, for the site's administrators. `GET` is its REST form; `POST`, with no
 * body, is how plone.exportimport's own `@export` is called, and answers the same. The gateway sends both over
 * the file hop (file-hop.ts), where the ZIP streams to the client (exchange/zip-export.ts); the operations
 * below, reached over gRPC only by a caller that bypasses the gateway, refuse rather than build it in memory.
 */
import { AppError } from '@cms/shared';
import { using } from './declarations';

const { endpoint, operation } = using();

const overHop = async (): Promise<never> => {
  throw new AppError('BadRequest', '@export streams its ZIP through the gateway only');
};

export const siteExport = endpoint({
  name: 'export',
  service: 'content',
  context: 'site-root',
  fileHop: 'site-zip',
  operations: {
    GET: operation({
      summary: 'The site as a ZIP of plone.exportimport’s layout (content/, __metadata__.json), streamed',
      permission: 'plone.exportimport.export',
      handle: overHop,
    }),
    POST: operation({
      summary: 'The same as GET, as plone.exportimport’s `@export` is called',
      permission: 'plone.exportimport.export',
      handle: overHop,
    }),
  },
});
