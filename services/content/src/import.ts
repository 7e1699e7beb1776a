/**
 * `npm run import -- <folder>`: loads a Plone 6 export (plone.exportimport's folder layout) into a running suite
 * through content's `ImportObject` (comments through discussion's `ImportComments`), as the user IMPORT_USER (a
 * Manager or Site Administrator). It finds the services at CONTENT_ADDRESS, IDENTITY_ADDRESS and
 * DISCUSSION_ADDRESS, else where the embedded mode on DATA_DIR wrote them, else at
 * their default ports.
 */
import { loadConfig, progress } from '@cms/shared';
import { formatReport, importSite } from './exchange/import-site';
import { PloneExport } from './exchange/plone-export';
import { openSession, runFolderCommand, sessionSchema } from './exchange/suite-session';

const USAGE = `Usage: npm run import -- <folder>

Loads a Plone 6 export written by plone.exportimport (content/, principals.json, ...) into a running suite
(\`npm start\`, or the distributed mode). Objects keep their UIDs, paths, dates, workflow states and history.
Objects already there (by UID) are skipped: run it again to finish an import that was cut short.
At the end it lists what it could not carry over, with counts and reasons.

Environment:
  IMPORT_USER        the user who imports, a Manager or Site Administrator (default admin)
  IMPORT_PASSWORD    that user's password (required)
  CONTENT_ADDRESS    the content service (default: from DATA_DIR/embedded-addresses.json, else 127.0.0.1:50051)
  IDENTITY_ADDRESS   the identity service (default: likewise, else 127.0.0.1:50052)
  DISCUSSION_ADDRESS the discussion service (default: likewise, else 127.0.0.1:50054)
  DATA_DIR           the embedded mode's data folder (default ./data)
  IMPORT_TIMEOUT_MS  the longest one object's import may take (default 60000)
  IMPORT_MAX_MESSAGE_BYTES  the largest object with its files (default 67108864)
`;

runFolderCommand('import', USAGE, async (folder) => {
  // The export is checked before anything is connected to.
  const exported = await PloneExport.open(folder);
  const config = loadConfig(sessionSchema('IMPORT'));
  const session = await openSession(config);
  try {
    const report = await importSite(exported, {
      content: session.content,
      identity: session.identity,
      discussion: session.discussion,
      principal: session.principal,
      timeoutMs: config.timeoutMs,
      progress: progress('import', exported.itemCount),
    });
    process.stdout.write(formatReport(report) + '\n');
    return report.failed.length ? 1 : 0;
  } finally {
    session.close();
  }
});
