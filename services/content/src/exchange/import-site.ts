/**
 * Loads a plone.exportimport export into a running suite, one object at a time through content's `ImportObject`
 * (nothing is written to a store from here). Objects already there (by UID) are skipped, so an import cut short
 * is finished by running it again. Returns what was done and what could not be carried, counted by reason.
 */
import {
  AppError,
  callUnary,
  type ContentServiceClient,
  type DiscussionServiceClient,
  type IdentityServiceClient,
  type HttpResponse__Output,
  type ImportObjectResponse__Output,
  type Principal__Output,
  type Progress,
} from '@cms/shared';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importDiscussions } from './discussions';
import { isBlobValue, SITE_ROOT_FOLDER, type PloneExport } from './plone-export';

/** The prefix of the `@id`s in the answers of the link endpoints, which the import does not read. */
const IMPORT_PUBLIC_URL = 'http://import.invalid';

export interface ImportReport {
  created: number;
  skipped: number;
  failed: { path: string; reason: string }[];
  /** Relations, translation links, redirects and comments carried over, by kind. */
  linked: Map<string, number>;
  /** `what — reason` → how many times. */
  notCarried: Map<string, number>;
}

export interface ImportTarget {
  content: ContentServiceClient;
  identity: IdentityServiceClient;
  discussion: DiscussionServiceClient;
  principal: Principal__Output;
  timeoutMs: number;
  progress: Progress;
}

export async function importSite(exported: PloneExport, target: ImportTarget): Promise<ImportReport> {
  const report: ImportReport = { created: 0, skipped: 0, failed: [], linked: new Map(), notCarried: new Map() };
  const count = (what: string, reason: string, times = 1) => {
    if (times <= 0) return;
    const key = `${what} — ${reason}`;
    report.notCarried.set(key, (report.notCarried.get(key) ?? 0) + times);
  };
  await importPrincipals(exported, target, report, count);
  const failedPaths: string[] = [];
  // UID → path here, for the links between objects imported after the tree (a few bytes per object).
  const paths = new Map<string, string>();
  const localRoles = exported.metadata.local_roles;
  for await (const { path, item, dataFile, isSiteRoot } of exported.items()) {
    const under = failedPaths.find((failed) => path.startsWith(`${failed}/`));
    if (under) {
      report.failed.push({ path, reason: `its container ${under.slice(0, 200)} was not imported` });
      failedPaths.push(path);
      target.progress.tick(path);
      continue;
    }
    const blobs = await Promise.all(
      Object.entries(item)
        .filter(([, value]) => isBlobValue(value))
        .map(async ([field, value]) => ({
          field,
          // One object's files at a time: the export is never held whole.
          data: await readFile(join(exported.folder, 'content', (value as { blob_path: string }).blob_path)),
        })),
    );
    const roles = localRoles[isSiteRoot ? 'plone_site_root' : item.UID];
    try {
      const answer = await callUnary<ImportObjectResponse__Output>(
        (md, o, cb) =>
          target.content.ImportObject(
            {
              principal: target.principal,
              item_json: Buffer.from(JSON.stringify(item)),
              local_roles_json: roles ? Buffer.from(JSON.stringify(roles)) : Buffer.alloc(0),
              blobs,
              position: exported.metadata.ordering[item.UID] ?? -1,
            },
            md,
            o,
            cb,
          ),
        { requestId: randomUUID(), timeoutMs: target.timeoutMs },
      );
      paths.set(item.UID, answer.path);
      if (isSiteRoot) paths.set(SITE_ROOT_FOLDER, '/');
      if (answer.created) report.created += 1;
      else if (!isSiteRoot) report.skipped += 1;
      for (const { what, reason } of answer.not_carried) count(what, reason);
    } catch (error) {
      report.failed.push({ path, reason: `${(error as Error).message.slice(0, 300)} (content/${dataFile})` });
      failedPaths.push(path);
    }
    target.progress.tick(path);
  }
  target.progress.stop();
  await importLinks(exported, target, paths, report, count);
  // Comments after the tree: only on objects that are here.
  const comments = await importDiscussions(exported, target, paths, count);
  if (comments > 0) report.linked.set('discussions.json comments', comments);
  countSideFiles(exported, count);
  return report;
}

/**
 * Relations, translation links and redirects, once every object is there: each through the endpoint a client
 * would use (`@relations`, `@translations`, `@aliases`), called on content as the gateway calls it, so the same
 * checks apply. What one refuses is counted with its reason.
 */
async function importLinks(
  exported: PloneExport,
  target: ImportTarget,
  paths: Map<string, string>,
  report: ImportReport,
  count: (what: string, reason: string) => void,
): Promise<void> {
  const send = (kind: string, path: string, endpoint: string, body: unknown) =>
    post(target.content, target, kind, path, endpoint, body, report, count);
  const missing = (kind: string) => count(kind, 'an object it links was not imported');
  for (const relation of await exported.relations()) {
    if (!paths.has(relation.from_uuid) || !paths.has(relation.to_uuid)) {
      missing('relations.json relations');
      continue;
    }
    const item = { source: relation.from_uuid, target: relation.to_uuid, relation: relation.from_attribute };
    if (await send('relations.json relations', '/', 'relations', { items: [item] }))
      count('modified', "of a relation's source: the write that adds the relation dates it now");
  }
  for (const group of await exported.translations()) {
    const canonical = paths.get(group.canonical);
    for (const uid of Object.values(group.translations)) {
      if (!canonical || !paths.has(uid)) missing('translations.json translation links');
      else await send('translations.json translation links', canonical, 'translations', { id: uid });
    }
  }
  for (const [from, to] of Object.entries(await exported.redirects()))
    await send('redirects.json redirects', to, 'aliases', { items: [{ path: from }] });
}

/** Something a service's `Handle` takes: content and identity both serve their endpoints through it. */
type EndpointClient = Pick<ContentServiceClient, 'Handle'> | Pick<IdentityServiceClient, 'Handle'>;

/**
 * A `POST` to an endpoint, called on the service as the gateway calls it: true when it was taken; a refusal is
 * counted under `kind` with its reason.
 */
async function post(
  client: EndpointClient,
  target: ImportTarget,
  kind: string,
  path: string,
  endpoint: string,
  body: unknown,
  report: ImportReport,
  count: (what: string, reason: string) => void,
): Promise<boolean> {
  let answer: HttpResponse__Output;
  try {
    answer = await callUnary<HttpResponse__Output>(
      (md, o, cb) =>
        (client as Pick<ContentServiceClient, 'Handle'>).Handle(
          {
            method: 'POST',
            context_path: path.split('/').filter(Boolean),
            endpoint,
            sub_path: [],
            query: [],
            body: Buffer.from(JSON.stringify(body)),
            principal: target.principal,
            public_url: IMPORT_PUBLIC_URL,
            request_id: randomUUID(),
            headers: {},
          },
          md,
          o,
          cb,
        ),
      { requestId: randomUUID(), timeoutMs: target.timeoutMs },
    );
  } catch (error) {
    // The service answers a refusal as an error of the call; a conflict is something there already.
    if (error instanceof AppError && error.type === 'Conflict') count(kind, 'there already (left as it is)');
    else count(kind, `refused here: ${(error as Error).message.slice(0, 200)}`);
    return false;
  }
  if (answer.status < 300) {
    report.linked.set(kind, (report.linked.get(kind) ?? 0) + 1);
    return true;
  }
  count(kind, `refused here (${answer.status}): ${messageOf(answer.body).slice(0, 200)}`);
  return false;
}

/** The `message` of an error body (addendum §4), or nothing. */
function messageOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const message = parsed && typeof parsed === 'object' ? (parsed as { message?: unknown }).message : undefined;
    return typeof message === 'string' ? message : '';
  } catch {
    return '';
  }
}

/**
 * Users and groups, before the tree (local roles name them): through identity's `@groups` and `@users`. Plone's
 * password hashes cannot be used here: users come without a password and set one by a reset (`@users/<id>/reset-password`).
 */
async function importPrincipals(
  exported: PloneExport,
  target: ImportTarget,
  report: ImportReport,
  count: (what: string, reason: string, times?: number) => void,
): Promise<void> {
  const { groups, members } = await exported.principals();
  const orNull = (text: string | null) => text || null;
  for (const group of groups) {
    const body = {
      groupname: group.groupid,
      title: orNull(group.title),
      description: orNull(group.description),
      email: orNull(group.email),
      roles: group.roles,
    };
    await post(target.identity, target, 'principals.json groups', '/', 'groups', body, report, count);
  }
  for (const member of members) {
    const body = {
      username: member.username,
      email: orNull(member.email),
      fullname: orNull(member.fullname),
      description: orNull(member.description),
      home_page: orNull(member.home_page),
      location: orNull(member.location),
      roles: member.roles.filter((role) => role !== 'Authenticated'),
      groups: member.groups,
      // A password no one knows: a Plone password hash cannot be used here, the user sets a new one by a reset.
      password: randomBytes(24).toString('base64url'),
    };
    if (await post(target.identity, target, 'principals.json users', '/', 'users', body, report, count))
      count('password', 'a Plone password hash cannot be used here: the user sets a new one by a reset');
  }
}

/** The parts of the export besides the content tree that this import does not carry, counted. */
function countSideFiles(exported: PloneExport, count: (what: string, reason: string, times?: number) => void): void {
  const metadata = exported.metadata;
  count(
    'local_permissions',
    'per-object permission settings are not supported here',
    Object.keys(metadata.local_permissions).length,
  );
  count('default_page', 'a folder shows its own listing here', Object.keys(metadata.default_page).length);
}

/** The report as printed at the end of `npm run import`. */
export function formatReport(report: ImportReport): string {
  const lines = [
    `imported ${report.created} objects, ${report.skipped} were there already, ${report.failed.length} failed`,
  ];
  for (const { path, reason } of report.failed) lines.push(`  failed ${path}: ${reason}`);
  for (const [kind, times] of report.linked) lines.push(`carried ${times} × ${kind}`);
  if (report.notCarried.size) {
    lines.push('not carried over:');
    for (const [what, times] of [...report.notCarried].sort((a, b) => b[1] - a[1])) lines.push(`  ${times} × ${what}`);
  }
  return lines.join('\n');
}
