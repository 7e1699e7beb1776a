/**
 * Writes what `ExportObjects` streams as plone.exportimport's folder layout, one object (and its files) at a
 * time; only the metadata's lists and maps (a few bytes per object) are kept until the end.
 */
import type { ExportedObject__Output, Progress } from '@cms/shared';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FORMAT_VERSION,
  itemSchema,
  localRolesEntrySchema,
  SITE_ROOT_FOLDER,
  SITE_ROOT_TYPE,
  type ExportMetadata,
} from './plone-export';

export interface ExportSummary {
  objects: number;
  blobs: number;
}

/** The parts of plone.exportimport's layout this export does not write (each is optional to its importer). */
export const NOT_EXPORTED = [
  'principals.json (users and groups: identity has no export call yet)',
  'discussions.json (comments: discussion has no export call yet)',
  'relations.json, translations.json, redirects.json (not exported yet)',
  'exportimport.versions (earlier versions of each object)',
];

/** Refuses a folder that holds anything: an export is never mixed into another. */
export async function prepareFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length) throw new Error(`${folder.slice(0, 300)} is not empty`);
}

/** Plone's files are JSON with two-space indents and sorted keys. */
function json(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sorted(value), null, 2) + '\n';
}

export async function exportSite(
  folder: string,
  objects: AsyncIterable<ExportedObject__Output>,
  progressFor: (total: number) => Progress,
): Promise<ExportSummary> {
  const content = join(folder, 'content');
  const metadata: ExportMetadata = {
    __version__: FORMAT_VERSION,
    _blob_files_: [],
    _data_files_: [],
    default_page: {},
    local_permissions: {},
    local_roles: {},
    ordering: {},
  };
  let progress: Progress | null = null;
  try {
    for await (const object of objects) {
      progress ??= progressFor(object.total);
      // What the service sent is checked as an import would check it: an export this writes, it can read.
      const item = itemSchema.parse(JSON.parse(object.item_json.toString('utf8')));
      const isRoot = item['@type'] === SITE_ROOT_TYPE;
      const key = isRoot ? SITE_ROOT_FOLDER : item.UID;
      await mkdir(join(content, key), { recursive: true });
      await writeFile(join(content, key, 'data.json'), json(item));
      metadata._data_files_.push(`${key}/data.json`);
      for (const blob of object.blobs) {
        const blobPath = (item[blob.field] as { blob_path: string }).blob_path;
        await mkdir(join(content, key, blob.field), { recursive: true });
        await writeFile(join(content, blobPath), blob.data);
        metadata._blob_files_.push(blobPath);
      }
      if (object.local_roles_json.length)
        metadata.local_roles[key] = localRolesEntrySchema.parse(JSON.parse(object.local_roles_json.toString('utf8')));
      if (!isRoot) metadata.ordering[key] = object.position;
      progress.tick(isRoot ? '/' : item['@id']);
    }
  } finally {
    progress?.stop();
  }
  await mkdir(content, { recursive: true });
  await writeFile(join(content, '__metadata__.json'), json(metadata));
  return { objects: metadata._data_files_.length, blobs: metadata._blob_files_.length };
}
