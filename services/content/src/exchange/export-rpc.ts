/**
 * `ExportObjects`: the tree as plone.exportimport's data.json files (`npm run export`), one object at a time in
 * path order (a container before what it holds), each with its files' bytes.
 */
import {
  requireCallerPermission,
  serverStream,
  SIMPLE_PUBLICATION_WORKFLOW,
  type ContentServiceHandlers,
  type ExportObjectsRequest__Output,
  type Logger,
} from '@cms/shared';
import type { ContentDeps } from '../api/declarations';
import { asFileValue, type FileValue } from '../domain/files';
import { jsonValue, CORE_FIELDS } from '../domain/content';
import { parentPathOf, type ContentDoc } from '../domain/content';
import { SITE_ROOT_TYPE as STORED_SITE_ROOT_TYPE, type ContentType } from '../domain/types';
import type { StoreContentRepository } from '../store/content-repository';
import { SITE_ROOT_FOLDER, SITE_ROOT_TYPE } from './plone-export';

/** Objects read from the store at a time. */
const PAGE_SIZE = 200;

export function exportRpcs(
  repo: StoreContentRepository,
  deps: ContentDeps,
  log: Logger,
): Pick<ContentServiceHandlers, 'ExportObjects'> {
  return {
    ExportObjects: serverStream(log, async function* (request: ExportObjectsRequest__Output, ctx) {
      requireCallerPermission(request.principal, 'plone.exportimport.export', 'Exporting');
      // Over gRPC, each object's files travel inside its message.
      yield* exportedObjects(repo, deps, (file) => deps.files.read(file), ctx.requestId);
    }),
  };
}

/** One object of the export as `ExportedObject` carries it, its files' bytes as `fetch` gives them (or a stream). */
export interface ObjectOfExport<Bytes> {
  item_json: Buffer;
  local_roles_json: Buffer;
  position: number;
  /** On the first object only: how many there are. */
  total: number;
  blobs: { field: string; data: Bytes }[];
  /** The targets of its relation fields (relations.json). */
  relations: { from_attribute: string; to_uuid: string }[];
  /** Its other site-relative paths (`@aliases`), for redirects.json. */
  aliases: string[];
  /** Its translation group ('' for none) and language ('' for none), for translations.json. */
  translation_group: string;
  language: string;
  /** On the first object only: the site's default language ('' on the others). */
  default_language: string;
}

/**
 * The tree in path order (a container before what it holds), one object at a time; the first names the total.
 * A file whose bytes `fetch` does not find is left out, as if the field were empty.
 */
export async function* exportedObjects<Bytes>(
  repo: StoreContentRepository,
  deps: ContentDeps,
  fetch: (file: FileValue) => Promise<Bytes | null>,
  requestId: string,
): AsyncGenerator<ObjectOfExport<Bytes>> {
  let total = await repo.countInTree();
  let defaultLanguage = (await deps.settings.current(requestId)).defaultLanguage;
  let rootUid = '';
  for await (const doc of repo.inPathOrder(PAGE_SIZE)) {
    if (doc.path === '/') rootUid = doc._id;
    const message = { ...(await exportedObject(doc, rootUid, deps, fetch)), total, default_language: defaultLanguage };
    total = 0;
    defaultLanguage = '';
    yield message;
  }
}

/** Plone's form of a date: seconds, with the offset written out. */
export function ploneDate(iso: string | null | undefined): string | null {
  return iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00') : null;
}

/** A stored value of a field (not a file) as data.json gives it. */
function exportedValue(field: ContentType['fields'][number], stored: unknown): unknown {
  return field.kind === 'json' ? jsonValue(stored) : field.kind === 'datetime' ? ploneDate(stored as string) : stored;
}

/**
 * `exportimport.versions` as plone.exportimport writes it: the earlier versions only (the latest is the object
 * itself), by version number, each the object as it was then with the version's `changeNote` and date
 * (`modified`); the object's own `changeNote` and `changeActor` are its latest version's. A version's files are
 * not written (their bytes travel once, with the object). Each version also names its author (`changeActor`),
 * which Plone's serializer leaves out and an import here reads back.
 */
async function exportedVersions(
  doc: ContentDoc,
  type: ContentType,
  item: Record<string, unknown>,
  deps: ContentDeps,
): Promise<Record<string, unknown>> {
  const records = doc.last_version === undefined ? [] : await deps.history.versionsOf(doc);
  const latest = records.at(-1);
  if (!latest) return {};
  const earlier: Record<string, unknown> = {};
  for (const record of records.slice(0, -1)) {
    const { title, description, effective, expires, fields } = record.content;
    const version: Record<string, unknown> = {
      '@id': item['@id'],
      '@type': item['@type'],
      UID: doc._id,
      id: doc.id,
      title,
      description,
      created: item.created,
      modified: ploneDate(record.time),
      effective: ploneDate(effective),
      expires: ploneDate(expires),
      changeNote: record.comments,
      ...(record.actor ? { changeActor: record.actor } : {}),
      version: record.version,
    };
    for (const field of type.fields) {
      const stored = fields[field.name];
      if (CORE_FIELDS.has(field.name) || stored === undefined || field.kind === 'file' || field.kind === 'image')
        continue;
      version[field.name] = exportedValue(field, stored);
    }
    earlier[String(record.version)] = version;
  }
  return { 'exportimport.versions': earlier, changeNote: latest.comments, changeActor: latest.actor };
}

/** A file's name as the export's folder layout takes it (one path segment). */
function blobFilename(filename: string): string {
  const name = filename.replace(/[/\\]/g, '_');
  return name === '.' || name === '..' || name === '' ? 'file' : name;
}

async function exportedObject<Bytes>(
  doc: ContentDoc,
  rootUid: string,
  deps: ContentDeps,
  fetch: (file: FileValue) => Promise<Bytes | null>,
): Promise<Omit<ObjectOfExport<Bytes>, 'total' | 'default_language'>> {
  const isRoot = doc.path === '/';
  const type = deps.types.get(doc.portal_type);
  const item: Record<string, unknown> = {
    '@id': isRoot ? `/${doc.id}` : doc.path,
    '@type': doc.portal_type === STORED_SITE_ROOT_TYPE ? SITE_ROOT_TYPE : doc.portal_type,
    UID: doc._id,
    id: doc.id,
    title: doc.title,
    description: doc.description,
    created: ploneDate(doc.created),
    modified: ploneDate(doc.modified),
    effective: ploneDate(doc.effective),
    expires: ploneDate(doc.expires),
    creators: doc.creators,
    review_state: doc.review_state,
    workflow_history: doc.workflow_history?.length
      ? {
          [SIMPLE_PUBLICATION_WORKFLOW.id]: doc.workflow_history.map((entry) => ({
            ...entry,
            time: ploneDate(entry.time),
          })),
        }
      : {},
    type_title: type.title,
    is_folderish: type.folderish,
    'exportimport.versions': {},
    'exportimport.conversation': [],
    'exportimport.constrains': {},
  };
  if (!isRoot && doc.parent_uid)
    item.parent = {
      '@id': parentPathOf(doc.path ?? '/'),
      UID: doc.parent_uid === rootUid ? SITE_ROOT_FOLDER : doc.parent_uid,
    };
  const blobs: ObjectOfExport<Bytes>['blobs'] = [];
  const relations: ObjectOfExport<Bytes>['relations'] = [];
  for (const field of type.fields) {
    if (CORE_FIELDS.has(field.name)) continue;
    const stored = doc.fields?.[field.name];
    if (stored === undefined) continue;
    if (field.kind === 'relationlist') {
      // As plone.exportimport writes them: in relations.json, which an import reads once every object is there
      // (in data.json, a relation to an object later in the export would refuse its source).
      for (const uid of Array.isArray(stored) ? stored : [])
        if (typeof uid === 'string') relations.push({ from_attribute: field.name, to_uuid: uid });
      continue;
    }
    const file = field.kind === 'file' || field.kind === 'image' ? asFileValue(stored) : null;
    if (file) {
      const bytes = await fetch(file);
      if (!bytes) continue;
      const filename = blobFilename(file.filename);
      item[field.name] = {
        blob_path: `${doc._id}/${field.name}/${filename}`,
        'content-type': file.content_type,
        filename: file.filename,
        size: file.size,
        ...(file.width !== undefined ? { width: file.width, height: file.height } : {}),
      };
      blobs.push({ field: field.name, data: bytes });
      continue;
    }
    item[field.name] = exportedValue(field, stored);
  }
  Object.assign(item, await exportedVersions(doc, type, item, deps));
  const grants = doc.local_roles ?? [];
  const roles =
    grants.length || doc.block_local_roles
      ? {
          ...(grants.length ? { local_roles: Object.fromEntries(grants.map((g) => [g.principal, g.roles])) } : {}),
          ...(doc.block_local_roles ? { block: 1 } : {}),
        }
      : null;
  return {
    item_json: Buffer.from(JSON.stringify(item)),
    local_roles_json: roles ? Buffer.from(JSON.stringify(roles)) : Buffer.alloc(0),
    position: doc.position,
    blobs,
    relations,
    aliases: doc.aliases ?? [],
    translation_group: doc.translation_group ?? '',
    language: typeof doc.fields?.language === 'string' ? doc.fields.language : '',
  };
}
