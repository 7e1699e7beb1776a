/**
 * `npm run export -- <folder>`: writes the site of a running suite in plone.exportimport's folder layout (what
 * `npm run import` and Plone 6's importer read), streaming one object at a time, as the user EXPORT_USER (a
 * Manager or Site Administrator).
 */
import {
  AppError,
  callUnary,
  loadConfig,
  progress,
  requestMetadata,
  type ContentSnapshot,
  type ExportedObject__Output,
} from '@cms/shared';
import { randomUUID } from 'node:crypto';
import { exportedDiscussions } from './exchange/discussions';
import { linksOfExport } from './exchange/export-links';
import { exportedPrincipals } from './exchange/export-principals';
import { exportSite, folderSink, notExported, prepareFolder, type ExportSideFiles } from './exchange/export-site';
import { openSession, runFolderCommand, sessionSchema } from './exchange/suite-session';

const USAGE = `Usage: npm run export -- <folder>

Writes the site of a running suite (\`npm start\`, or the distributed mode) into <folder>, which must be empty
or new, in the layout plone.exportimport writes: content/<UID>/data.json with the files beside them,
content/__metadata__.json, relations.json, principals.json (without passwords), translations.json and
redirects.json. Objects keep their UIDs, paths, dates, workflow states and history.

Environment:
  EXPORT_USER        the user who exports, a Manager or Site Administrator (default admin)
  EXPORT_PASSWORD    that user's password (required)
  CONTENT_ADDRESS    the content service (default: from DATA_DIR/embedded-addresses.json, else 127.0.0.1:50051)
  IDENTITY_ADDRESS   the identity service (default: likewise, else 127.0.0.1:50052)
  DISCUSSION_ADDRESS the discussion service (default: likewise, else 127.0.0.1:50054)
  DATA_DIR           the embedded mode's data folder (default ./data)
  EXPORT_MAX_MESSAGE_BYTES  the largest object with its files (default 67108864)
`;

runFolderCommand('export', USAGE, async (folder) => {
  const config = loadConfig(sessionSchema('EXPORT'));
  await prepareFolder(folder);
  const session = await openSession(config);
  try {
    const requestId = randomUUID();
    const stream = session.content.ExportObjects({ principal: session.principal }, requestMetadata(requestId));
    const links = linksOfExport(stream as AsyncIterable<ExportedObject__Output>);
    const sides: ExportSideFiles = {
      principals: () => exportedPrincipals(session.identity, session.principal, requestId),
      discussions: () =>
        exportedDiscussions(session, (uid) =>
          callUnary<ContentSnapshot>((md, o, cb) => session.content.GetByUid({ uid }, md, o, cb), {
            requestId: randomUUID(),
            timeoutMs: config.timeoutMs,
          }).then(
            (snapshot) => snapshot.path,
            // An object removed since its comments were read: they go with it.
            (error: Error) => (error instanceof AppError && error.type === 'NotFound' ? null : Promise.reject(error)),
          ),
        ),
      translations: links.translations,
      redirects: links.redirects,
    };
    const summary = await exportSite(folderSink(folder), links.objects, sides, (total) => progress('export', total));
    process.stdout.write(`exported ${summary.objects} objects and ${summary.blobs} files\n`);
    process.stdout.write(
      `not exported:\n${notExported(sides)
        .map((line) => `  ${line}`)
        .join('\n')}\n`,
    );
    return 0;
  } finally {
    session.close();
  }
});
