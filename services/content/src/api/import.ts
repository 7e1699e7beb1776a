/**
 * `@import` (plone.exportimport 2's): `POST` of a ZIP of plone.exportimport's layout (what `@export` answers)
 * loads it as `npm run import` loads a folder, for the site's administrators, and answers its report. The ZIP is
 * the body itself (`application/zip`) or, as plone.exportimport's `@import` takes it, the form field `file`. The
 * gateway sends it over the file hop (file-hop.ts), where the body streams into a file
 * (exchange/zip-import.ts); the operation below, reached over gRPC only by a caller that bypasses the gateway,
 * refuses.
 */
import { AppError } from '@cms/shared';
import { using } from './declarations';

const { endpoint, operation } = using();

export const siteImport = endpoint({
  name: 'import',
  service: 'content',
  context: 'site-root',
  fileHop: 'site-zip',
  operations: {
    POST: operation({
      summary:
        'Imports a ZIP of plone.exportimport’s layout (the body, or the form field `file`); objects there already (by UID) are skipped',
      permission: 'plone.exportimport.import',
      handle: async () => {
        throw new AppError('BadRequest', '@import takes its ZIP through the gateway only');
      },
    }),
  },
});
