/**
 * `ImportObject`: one object of a plone.exportimport export added to this site (`npm run import`), keeping its
 * UID, path, dates, creators, workflow state and history and local roles. What the object's type here does not
 * hold, or refuses, is left out and named in the answer with why.
 */
import {
  badRequest,
  notFound,
  requireCallerPermission,
  SIMPLE_PUBLICATION_WORKFLOW,
  unary,
  type ContentServiceHandlers,
  type ImportObjectRequest__Output,
  type LocalRoles,
  type Logger,
  type NotCarried,
} from '@cms/shared';
import { z } from 'zod';
import type { ContentDeps } from '../api/declarations';
import type { ImportedEarlierVersion, ImportedState } from '../domain/content';
import { parentPathOf, type WorkflowEntry } from '../domain/content';
import type { ContentType } from '../domain/types';
import type { StoreContentRepository } from '../store/content-repository';
import { itemSchema, localRolesEntrySchema, SITE_ROOT_TYPE, type ExportItem } from './plone-export';

/** Members of data.json that describe the object rather than hold a field value; each is taken or named below. */
const DESCRIPTIVE = new Set([
  '@id',
  '@type',
  'UID',
  'id',
  'parent',
  'created',
  'modified',
  'creators',
  'review_state',
  'workflow_history',
  'type_title',
  'is_folderish',
  'version',
  'lock',
  'working_copy',
  'working_copy_of',
  'changeNote',
  'changeActor',
  'versioning_enabled',
  'exportimport.conversation',
  'exportimport.versions',
  'exportimport.constrains',
  'layout',
]);

/** plone.exportimport's `language` for "the site's default": the object then takes its container's language. */
const DEFAULT_LANGUAGE_MARKER = '##DEFAULT##';

/** Why a descriptive member with a value is not carried over; those not named are carried or need no saying. */
const NOT_CARRIED_REASONS: Record<string, (value: unknown) => string | null> = {
  layout: (v) => (typeof v === 'string' && v ? 'the view is chosen by the client (Volto) here' : null),
  'exportimport.constrains': (v) =>
    v && typeof v === 'object' && Object.keys(v).length > 0
      ? 'per-folder restrictions of addable types are not supported here'
      : null,
};

export function importRpcs(
  repo: StoreContentRepository,
  deps: ContentDeps,
  log: Logger,
): Pick<ContentServiceHandlers, 'ImportObject'> {
  return {
    ImportObject: unary(log, async (request: ImportObjectRequest__Output, ctx) => {
      const principal = requireCallerPermission(request.principal, 'plone.exportimport.import', 'Importing');
      const item = parseJson(request.item_json, itemSchema, 'item_json');
      const roles = request.local_roles_json.length
        ? parseJson(request.local_roles_json, localRolesEntrySchema, 'local_roles_json')
        : {};
      if (item['@type'] === SITE_ROOT_TYPE) {
        // This site's root stays: its UID is this site's, its title is the site settings'.
        return {
          created: false,
          path: '/',
          not_carried: [{ what: 'site root', reason: "this site's root is kept (its UID, title and front page)" }],
        };
      }
      const existing = await repo.byUid(item.UID);
      if (existing) return { created: false, path: existing.path ?? '/', not_carried: [] };
      const type = deps.types.find(item['@type']);
      if (!type) throw badRequest(`Content type "${item['@type'].slice(0, 100)}" does not exist here`);
      const parentPath = parentPathOf(item['@id']);
      const parent = await repo.byPath(parentPath);
      if (!parent) throw notFound(`No parent at ${parentPath.slice(0, 300)}: import it first`);
      const notCarried: NotCarried[] = [];
      const values = fieldValues(item, type, request.blobs, notCarried);
      const checked = checkedValues(deps.types.createSchema(type), values, notCarried);
      const history = importedHistory(item, type, deps.types.createSchema(type), notCarried);
      const imported = {
        ...importedState(item, type, roles, notCarried),
        ...(request.position >= 0 ? { position: request.position } : {}),
        ...(history ? { history } : {}),
      };
      const caller = { principal, requestId: ctx.requestId, publicUrl: '' };
      const doc = await deps.commands.importObject(parent, type, checked, imported, caller);
      ctx.log.info({ uid: doc._id, path: doc.path, notCarried: notCarried.length }, 'object imported');
      return { created: true, path: doc.path ?? '/', not_carried: notCarried };
    }),
  };
}

function parseJson<T extends z.ZodTypeAny>(bytes: Buffer, schema: T, name: string): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw badRequest(`${name} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`${name}: ${issue.path.join('.').slice(0, 200)}: ${issue.message}`);
  }
  return parsed.data as z.infer<T>;
}

/** The item's values for the fields of `type`; file fields take their bytes from `blobs`. */
function fieldValues(
  item: ExportItem,
  type: ContentType,
  blobs: ImportObjectRequest__Output['blobs'],
  notCarried: NotCarried[],
): Record<string, unknown> {
  const fields = new Map(type.fields.map((field) => [field.name, field]));
  // The type's create schema names the type, as a POST's body does.
  const values: Record<string, unknown> = { '@type': type.name };
  for (const [name, value] of Object.entries(item)) {
    if (DESCRIPTIVE.has(name)) {
      const reason = NOT_CARRIED_REASONS[name]?.(value);
      if (reason) notCarried.push({ what: name, reason });
      continue;
    }
    const field = fields.get(name);
    if (!field) {
      if (value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
        notCarried.push({ what: name, reason: `${type.title} has no such field here` });
      continue;
    }
    if (value === null || (name === 'language' && value === DEFAULT_LANGUAGE_MARKER)) continue;
    if (field.kind === 'file' || field.kind === 'image') {
      const blob = blobs.find((b) => b.field === name);
      const meta = value as { filename?: string; 'content-type'?: string };
      if (!blob) notCarried.push({ what: name, reason: 'its file was not sent' });
      else
        values[name] = {
          data: blob.data.toString('base64'),
          encoding: 'base64',
          filename: meta.filename,
          'content-type': meta['content-type'],
        };
      continue;
    }
    values[name] = value;
  }
  return values;
}

/**
 * The values as the type's schema takes them: a value it refuses is left out (and named) rather than the whole
 * object, so that one odd field does not keep a page out of the site.
 */
function checkedValues(
  schema: z.ZodType<Record<string, unknown>>,
  values: Record<string, unknown>,
  notCarried: NotCarried[],
): Record<string, unknown> {
  let remaining = { ...values };
  for (let attempt = 0; attempt <= Object.keys(values).length; attempt++) {
    const parsed = schema.safeParse(remaining);
    if (parsed.success) return parsed.data;
    const refused = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const names = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
      for (const name of names) if (name in remaining && !refused.has(name)) refused.set(name, issue.message);
    }
    if (!refused.size) {
      const issue = parsed.error.issues[0];
      throw badRequest(`The object does not fit its type here: ${issue.message.slice(0, 200)}`);
    }
    for (const [name, message] of refused) {
      notCarried.push({ what: name, reason: `refused by this site's type: ${message.slice(0, 200)}` });
      const { [name]: _dropped, ...rest } = remaining;
      remaining = rest;
    }
  }
  throw badRequest('The object does not fit its type here');
}

/**
 * The object's versions as plone.exportimport writes them: `exportimport.versions` holds the earlier ones only
 * (by version id, each the object as serialized at that version, with its `changeNote` and `modified`), and the
 * object's own `changeNote` and `changeActor` are those of its latest version, which comes after them. Null when
 * there are no earlier versions (the import then makes the initial version, as a creation does) or the type here
 * keeps none (then named in `notCarried`).
 */
function importedHistory(
  item: ExportItem,
  type: ContentType,
  schema: z.ZodType<Record<string, unknown>>,
  notCarried: NotCarried[],
): ImportedState['history'] | null {
  const versions = Object.entries(item['exportimport.versions']);
  if (!versions.length) return null;
  if (!type.behaviors.includes('cms.versioning')) {
    notCarried.push({ what: 'exportimport.versions', reason: `a ${type.title} keeps no versions here` });
    return null;
  }
  if (item.versioning_enabled === false) {
    notCarried.push({ what: 'exportimport.versions', reason: 'versioning is turned off for the object' });
    return null;
  }
  const earlier: ImportedEarlierVersion[] = [];
  let withoutActor = 0;
  for (const [key, version] of versions) {
    const what = `exportimport.versions.${key.slice(0, 20)}`;
    const number = /^\d{1,6}$/.test(key) ? Number(key) : NaN;
    const time = isoDate(version.modified) ?? isoDate(version.created);
    if (Number.isNaN(number) || time === null) {
      const why = Number.isNaN(number) ? 'its version id is not a number' : 'it has no modification date';
      notCarried.push({ what, reason: why });
      continue;
    }
    const fieldsNotCarried: NotCarried[] = [];
    let values: Record<string, unknown>;
    try {
      values = checkedValues(
        schema,
        fieldValues({ ...version, '@type': type.name } as ExportItem, type, [], fieldsNotCarried),
        fieldsNotCarried,
      );
    } catch (error) {
      // An old version that does not fit the type (no title, say) is left out: it must not keep the object out.
      notCarried.push({
        what,
        reason: `this version does not fit the type here: ${(error as Error).message.slice(0, 200)}`,
      });
      continue;
    }
    for (const entry of fieldsNotCarried) notCarried.push({ what: `${what}.${entry.what}`, reason: entry.reason });
    if (typeof version.changeActor !== 'string') withoutActor++;
    earlier.push({
      version: number,
      time,
      actor: typeof version.changeActor === 'string' ? version.changeActor : '',
      comments: typeof version.changeNote === 'string' ? version.changeNote : '',
      values,
    });
  }
  if (!earlier.length) return null;
  if (withoutActor)
    notCarried.push({
      what: 'exportimport.versions',
      reason: `the export names no author of ${withoutActor} earlier version(s): they are shown without one`,
    });
  earlier.sort((a, b) => a.version - b.version);
  return {
    earlier,
    latest: {
      version: earlier[earlier.length - 1].version + 1,
      time: isoDate(item.modified) ?? earlier[earlier.length - 1].time,
      actor: typeof item.changeActor === 'string' ? item.changeActor : '',
      comments: typeof item.changeNote === 'string' ? item.changeNote : '',
    },
  };
}

/** An export's date as an ISO-8601 instant, or null when it is none. */
function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function importedState(
  item: ExportItem,
  type: ContentType,
  roles: z.infer<typeof localRolesEntrySchema>,
  notCarried: NotCarried[],
): ImportedState {
  const workflow = SIMPLE_PUBLICATION_WORKFLOW;
  const states = workflow.states as Record<string, unknown>;
  let reviewState = item.review_state ?? null;
  if (reviewState !== null && !(reviewState in states)) {
    notCarried.push({ what: 'review_state', reason: `"${reviewState.slice(0, 50)}" is not a state of ${workflow.id}` });
    reviewState = null;
  }
  const history: WorkflowEntry[] = [];
  for (const [workflowId, entries] of Object.entries(item.workflow_history)) {
    if (workflowId !== workflow.id) {
      notCarried.push({ what: 'workflow_history', reason: `the history of ${workflowId.slice(0, 100)}` });
      continue;
    }
    for (const entry of entries)
      history.push({
        action: entry.action,
        actor: entry.actor ?? '',
        comments: entry.comments ?? '',
        review_state: entry.review_state,
        time: new Date(entry.time).toISOString(),
      });
  }
  if (type.workflow && reviewState === null) reviewState = workflow.initialState;
  const localRoles: LocalRoles = Object.entries(roles.local_roles ?? {}).map(([principal, granted]) => ({
    principal,
    roles: granted,
  }));
  return {
    uid: item.UID,
    id: item.id,
    created: item.created ? new Date(item.created).toISOString() : undefined,
    modified: item.modified ? new Date(item.modified).toISOString() : undefined,
    creators: item.creators,
    review_state: reviewState,
    workflow_history: history,
    local_roles: localRoles,
    block_local_roles: roles.block === 1 || roles.block === true,
  };
}
