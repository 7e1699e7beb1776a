/**
 * Writes the objects of an export (what `ExportObjects` streams, or the same read in content) as
 * plone.exportimport's layout, into a folder (`npm run export`) or a ZIP (`@export`), one object (and its files)
 * at a time; only the metadata's lists and maps (a few bytes per object) are kept until the end.
 */
import type { Progress } from '@cms/shared';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRINCIPALS_NOT_EXPORTED } from './export-principals';
import type { ObjectOfExport } from './export-rpc';
import {
  FORMAT_VERSION,
  itemSchema,
  localRolesEntrySchema,
  SITE_ROOT_FOLDER,
  SITE_ROOT_TYPE,
  type ExportConversation,
  type ExportMetadata,
  type ExportPrincipals,
  type ExportRedirects,
  type ExportRelations,
  type ExportTranslations,
} from './plone-export';

export interface ExportSummary {
  objects: number;
  blobs: number;
}

/**
 * The layout's files besides the content tree, each read from the service that owns its data. One that is not
 * given is not written (each is optional to plone.exportimport's importer) and is listed by `notExported`.
 */
export interface ExportSideFiles {
  principals?: () => Promise<ExportPrincipals>;
  /** One object's conversation at a time: only one is held while the file is written. */
  discussions?: () => AsyncIterable<ExportConversation>;
  translations?: () => Promise<ExportTranslations>;
  redirects?: () => Promise<ExportRedirects>;
}

const SIDE_FILES = {
  principals: 'principals.json',
  discussions: 'discussions.json',
  translations: 'translations.json',
  redirects: 'redirects.json',
} as const satisfies Record<keyof ExportSideFiles, string>;

/** The parts of plone.exportimport's layout an export with `sides` does not write. */
export function notExported(sides: ExportSideFiles): string[] {
  return [
    ...(Object.keys(SIDE_FILES) as (keyof ExportSideFiles)[])
      .filter((key) => !sides[key])
      .map((key) => `${SIDE_FILES[key]} (not exported yet)`),
    ...(sides.principals ? [PRINCIPALS_NOT_EXPORTED] : []),
  ];
}

/** Refuses a folder that holds anything: an export is never mixed into another. */
export async function prepareFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length) throw new Error(`${folder.slice(0, 300)} is not empty`);
}

/** Where the layout's files go. */
export interface ExportSink {
  /** Writes the file at `path` (`/`-separated, from the export's root); resolves once it is written or handed on. */
  write(path: string, data: Buffer | Readable): Promise<void>;
}

/** The layout as files under `folder`. */
export function folderSink(folder: string): ExportSink {
  return {
    async write(path, data) {
      const file = join(folder, ...path.split('/'));
      await mkdir(dirname(file), { recursive: true });
      if (Buffer.isBuffer(data)) await writeFile(file, data);
      else await pipeline(data, createWriteStream(file));
    },
  };
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

/** An object written as `json` writes it, one member at a time (members in the order given, not sorted). */
async function* jsonObjectOf(members: AsyncIterable<[string, unknown]>): AsyncGenerator<Buffer> {
  let first = true;
  for await (const [key, value] of members) {
    // `json` of the one member, without its braces: the member indented as it is within the whole.
    const text = json({ [key]: value });
    yield Buffer.from(`${first ? '{\n' : ',\n'}${text.slice(2, -3)}`);
    first = false;
  }
  yield Buffer.from(first ? '{}\n' : '\n}\n');
}

export async function exportSite(
  sink: ExportSink,
  objects: AsyncIterable<ObjectOfExport<Buffer | Readable>>,
  sides: ExportSideFiles,
  progressFor: (total: number) => Progress,
): Promise<ExportSummary> {
  const metadata: ExportMetadata = {
    __version__: FORMAT_VERSION,
    _blob_files_: [],
    _data_files_: [],
    default_page: {},
    local_permissions: {},
    local_roles: {},
    ordering: {},
  };
  // A few bytes per relation, kept until the end as the metadata is.
  const relations: ExportRelations = [];
  let progress: Progress | null = null;
  let current: ObjectOfExport<Buffer | Readable> | null = null;
  try {
    for await (const object of objects) {
      current = object;
      progress ??= progressFor(object.total);
      // What the service sent is checked as an import would check it: an export this writes, it can read.
      const item = itemSchema.parse(JSON.parse(object.item_json.toString('utf8')));
      const isRoot = item['@type'] === SITE_ROOT_TYPE;
      const key = isRoot ? SITE_ROOT_FOLDER : item.UID;
      await sink.write(`content/${key}/data.json`, Buffer.from(json(item)));
      metadata._data_files_.push(`${key}/data.json`);
      for (const blob of object.blobs) {
        const blobPath = (item[blob.field] as { blob_path: string }).blob_path;
        await sink.write(`content/${blobPath}`, blob.data);
        metadata._blob_files_.push(blobPath);
      }
      if (object.local_roles_json.length)
        metadata.local_roles[key] = localRolesEntrySchema.parse(JSON.parse(object.local_roles_json.toString('utf8')));
      if (!isRoot) metadata.ordering[key] = object.position;
      for (const { from_attribute, to_uuid } of object.relations)
        relations.push({ from_attribute, from_uuid: item.UID, to_uuid });
      progress.tick(isRoot ? '/' : item['@id']);
    }
  } catch (error) {
    // Files of the object being written that were opened as streams and not read through.
    for (const blob of current?.blobs ?? []) if (!Buffer.isBuffer(blob.data)) blob.data.destroy();
    throw error;
  } finally {
    progress?.stop();
  }
  await sink.write('content/__metadata__.json', Buffer.from(json(metadata)));
  await sink.write('relations.json', Buffer.from(json(relations)));
  const { discussions, ...wholeFiles } = sides;
  for (const key of Object.keys(SIDE_FILES) as (keyof ExportSideFiles)[]) {
    if (key === 'discussions') {
      if (discussions) await sink.write(SIDE_FILES[key], Readable.from(jsonObjectOf(discussions())));
      continue;
    }
    const read = wholeFiles[key];
    if (read) await sink.write(SIDE_FILES[key], Buffer.from(json(await read())));
  }
  return { objects: metadata._data_files_.length, blobs: metadata._blob_files_.length };
}
