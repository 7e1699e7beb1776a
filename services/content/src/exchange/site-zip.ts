/**
 * `@export` and `@import` on content's end of the file hop: the declaration's checks (as the dispatcher runs them
 * for the gRPC hop), then the ZIP streamed out (zip-export.ts), or received, unpacked and imported exactly as
 * `npm run import` imports a folder: through content's `ImportObject`, identity's endpoints and discussion's
 * `ImportComments`, as the caller.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppError,
  badRequest,
  checkDeclared,
  clip,
  compileEndpoint,
  createClient,
  protos,
  type ContextResolver,
  type EndpointDeclaration,
  type FileHopRequest,
  type Logger,
  type Principal__Output,
} from '@cms/shared';
import type { ContentDeps } from '../api/declarations';
import { siteExport } from '../api/export';
import { siteImport } from '../api/import';
import { dropUnreadBody } from '../api/unread-body';
import type { ContentDoc } from '../domain/content';
import type { StoreContentRepository } from '../store/content-repository';
import { exportedDiscussions } from './discussions';
import { exportedPrincipals } from './export-principals';
import { formatReport, importSite, type ImportReport } from './import-site';
import { ExportFormatError, PloneExport } from './plone-export';
import { sendSiteZip, SILENT_PROGRESS } from './zip-export';
import { unpackUpload, type ZipLimits } from './zip-import';

export interface SiteZipOptions {
  repo: StoreContentRepository;
  /** Content's own gRPC address, identity's and discussion's: the import calls them as `npm run import` does. */
  contentAddress: string;
  identityAddress: string;
  /** Read when a ZIP is asked for or sent (in the embedded mode discussion starts after content). */
  discussionAddress: () => string;
  maxMessageBytes: number;
  limits: ZipLimits;
}

/** The longest one object's import may take (`npm run import`'s default). */
const IMPORT_OBJECT_TIMEOUT_MS = 60_000;
/**
 * How often a running import answers `102 Processing`: the bytes keep the hop's connection from looking idle to
 * the gateway, which would give up on it after CALL_TIMEOUT_MS without any.
 */
const HEARTBEAT_MS = 2000;

const COMPILED = new Map(
  [siteExport, siteImport].map((d) => [d.name, compileEndpoint(d as EndpointDeclaration<unknown, unknown>)]),
);

/** Whether an import runs in this process: a second one at once would race the first for the same objects. */
let importing = false;

export async function answerSiteZip(
  req: IncomingMessage,
  res: ServerResponse,
  hop: FileHopRequest,
  deps: ContentDeps,
  contexts: ContextResolver<ContentDoc>,
  options: SiteZipOptions,
  log: Logger,
): Promise<void> {
  const endpoint = COMPILED.get(hop.endpoint);
  if (!endpoint) throw badRequest('Not a forwarded request of the site ZIP');
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? '');
  try {
    await deps.typeSource.refresh(hop.request_id);
    await checkDeclared(endpoint, { ...hop, method }, hop.request_id, contexts);
    if (hop.endpoint === 'export') {
      if (req.method === 'HEAD') res.writeHead(200, { 'Content-Type': 'application/zip' }).end();
      else await exportZip(res, hop.principal as Principal__Output, hop.request_id, deps, options, log);
      return;
    }
    // The permission passed: a principal is there.
    await answerImport(req, res, hop.principal as Principal__Output, options, log);
  } catch (error) {
    // Refused before the body had all come: the rest of it is read and dropped (or, past a limit, the connection
    // closes with the answer).
    dropUnreadBody(req, res);
    throw error;
  }
}

/** The site's ZIP, its principals.json read from identity as the caller (the permission passed: a principal is there). */
async function exportZip(
  res: ServerResponse,
  principal: Principal__Output,
  requestId: string,
  deps: ContentDeps,
  options: SiteZipOptions,
  log: Logger,
): Promise<void> {
  const identity = createClient(protos().identity.IdentityService, options.identityAddress, options.maxMessageBytes);
  const discussion = discussionClient(options);
  try {
    const principals = () => exportedPrincipals(identity, principal, requestId);
    // The comments' owner, asked as the caller; an object removed since its comments were read takes them along.
    const discussions = () =>
      exportedDiscussions({ discussion, principal }, async (uid) => (await options.repo.byUid(uid))?.path ?? null);
    await sendSiteZip(res, options.repo, deps, { principals, discussions }, requestId, log);
  } finally {
    identity.close();
    discussion.close();
  }
}

async function answerImport(
  req: IncomingMessage,
  res: ServerResponse,
  principal: Principal__Output,
  options: SiteZipOptions,
  log: Logger,
): Promise<void> {
  if (importing) throw new AppError('Conflict', 'An import is running on this site: post again once it has finished');
  importing = true;
  const dir = await mkdtemp(join(tmpdir(), 'cms-import-'));
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    const folder = await unpackUpload(req, dir, options.limits);
    heartbeat = setInterval(() => res.writeProcessing(), HEARTBEAT_MS);
    const report = await importFolder(folder, principal, options);
    log.info({ created: report.created, skipped: report.skipped, failed: report.failed.length }, 'site ZIP imported');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(reportBody(report)));
  } finally {
    clearInterval(heartbeat);
    importing = false;
    await rm(dir, { recursive: true, force: true });
  }
}

async function importFolder(folder: string, principal: Principal__Output, options: SiteZipOptions) {
  let exported: PloneExport;
  try {
    exported = await PloneExport.open(folder);
    // Every listed file read once first: a broken export is refused whole, before anything is imported.
    await exported.check();
  } catch (error) {
    if (error instanceof ExportFormatError)
      throw badRequest(`The ZIP is not a whole export: ${clip(error.message, 300)}`);
    throw error;
  }
  const content = createClient(protos().content.ContentService, options.contentAddress, options.maxMessageBytes);
  const identity = createClient(protos().identity.IdentityService, options.identityAddress, options.maxMessageBytes);
  const discussion = discussionClient(options);
  try {
    return await importSite(exported, {
      content,
      identity,
      discussion,
      principal,
      timeoutMs: IMPORT_OBJECT_TIMEOUT_MS,
      progress: SILENT_PROGRESS,
    });
  } finally {
    content.close();
    identity.close();
    discussion.close();
  }
}

function discussionClient(options: SiteZipOptions) {
  return createClient(protos().discussion.DiscussionService, options.discussionAddress(), options.maxMessageBytes);
}

/**
 * plone.exportimport's answer (`status`, `report` as lines: here those `npm run import` prints), with the same
 * counts as members: `status` is `incomplete` when objects failed (post the ZIP again once their cause is fixed).
 */
function reportBody(report: ImportReport) {
  return {
    status: report.failed.length ? 'incomplete' : 'success',
    report: formatReport(report).split('\n'),
    created: report.created,
    skipped: report.skipped,
    failed: report.failed,
    carried: Object.fromEntries(report.linked),
    not_carried: [...report.notCarried].map(([key, count]) => {
      const at = key.indexOf(' — ');
      return { what: key.slice(0, at), reason: key.slice(at + 3), count };
    }),
  };
}
