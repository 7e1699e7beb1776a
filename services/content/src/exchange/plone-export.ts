/**
 * The folder layout that plone.exportimport (Plone 6) writes and reads, read one file at a time:
 *
 *   content/__metadata__.json          the list of data and blob files, ordering, local roles, default pages
 *   content/<UID>/data.json            one object (the site root's folder is `plone_site_root`)
 *   content/<UID>/<field>/<filename>   the bytes of a file or image field
 *   principals.json, discussions.json, relations.json, translations.json, redirects.json
 *
 * Every file is validated when it is read; a reference to a blob may not leave the content folder.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';

export const SITE_ROOT_FOLDER = 'plone_site_root';
export const SITE_ROOT_TYPE = 'Plone Site';
/** The format version plone.exportimport 1.x and 2.x write. */
export const FORMAT_VERSION = '1.0.0';

const hexUid = z.string().regex(/^[0-9a-f]{32}$/, 'a UID is 32 hexadecimal digits');
/** plone.exportimport names the site root by this key in the metadata, whatever its UID. */
const uidOrRoot = z.union([hexUid, z.literal(SITE_ROOT_FOLDER)]);
const dataFile = z.string().regex(/^(plone_site_root|[0-9a-f]{32})\/data\.json$/, 'not <UID>/data.json');
// <UID>/<field>/<filename>: one segment each, none of them `.` or `..`, no backslash.
const blobFile = z
  .string()
  .max(1024)
  .regex(/^[0-9a-f]{32}\/[A-Za-z_][A-Za-z0-9_]*\/(?!\.\.?$)[^/\\]+$/, 'not <UID>/<field>/<filename>');
/** Plone writes dates with an offset, and `effective`/`expires` without one. */
const date = z
  .string()
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a date');
const principalId = z.string().min(1).max(255);

/** An object's entry in the metadata's `local_roles`. */
export const localRolesEntrySchema = z.object({
  local_roles: z.record(principalId, z.array(z.string().min(1).max(100))).optional(),
  block: z.union([z.literal(1), z.literal(0), z.boolean()]).optional(),
});

export const metadataSchema = z.object({
  __version__: z.string().max(32),
  _data_files_: z.array(dataFile),
  _blob_files_: z.array(blobFile).default([]),
  default_page: z
    .record(uidOrRoot, z.object({ default_page: z.string().min(1).max(255), default_page_uuid: hexUid }))
    .default({}),
  local_permissions: z
    .record(uidOrRoot, z.record(z.string(), z.object({ roles: z.array(z.string()), acquire: z.boolean() })))
    .default({}),
  local_roles: z.record(uidOrRoot, localRolesEntrySchema).default({}),
  ordering: z.record(uidOrRoot, z.number().int().nonnegative()).default({}),
});
export type ExportMetadata = z.infer<typeof metadataSchema>;

export const workflowEntrySchema = z.object({
  action: z.string().nullable(),
  actor: z.string().nullable(),
  comments: z.string().nullable().default(''),
  review_state: z.string().min(1),
  time: date,
});

/** A file or image field's value: the bytes are at `blob_path` under content/. */
export const blobValueSchema = z.object({
  blob_path: blobFile,
  'content-type': z.string().min(1).max(255),
  filename: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  width: z.number().int().nonnegative().optional(),
  height: z.number().int().nonnegative().optional(),
});
export type BlobValue = z.infer<typeof blobValueSchema>;

/**
 * One object's data.json: plone.restapi's serialization with the exporter's additions. The fields of its
 * type are kept as they are (passthrough); only what the import relies on is checked.
 */
export const itemSchema = z
  .object({
    '@id': z.string().startsWith('/').max(4096),
    '@type': z.string().min(1).max(100),
    UID: hexUid,
    id: z.string().min(1).max(255),
    title: z.string().nullable().default(''),
    description: z.string().nullable().default(''),
    created: date.optional(),
    modified: date.optional(),
    effective: date.nullable().optional(),
    expires: date.nullable().optional(),
    creators: z.array(principalId).default([]),
    review_state: z.string().nullable().optional(),
    language: z.string().max(20).optional(),
    workflow_history: z.record(z.string(), z.array(workflowEntrySchema)).default({}),
    'exportimport.versions': z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    'exportimport.conversation': z.array(z.unknown()).default([]),
    'exportimport.constrains': z
      .object({
        locally_allowed_types: z.array(z.string()).optional(),
        immediately_addable_types: z.array(z.string()).optional(),
      })
      .default({}),
    parent: z.object({ UID: uidOrRoot, '@id': z.string() }).passthrough().optional(),
  })
  .passthrough();
export type ExportItem = z.infer<typeof itemSchema>;

const commentSchema = z
  .object({
    comment_id: z.string().min(1).max(64),
    in_reply_to: z.string().min(1).max(64).nullable(),
    text: z.object({ data: z.string(), 'mime-type': z.string().max(100) }),
    author_username: z.string().max(255).nullable(),
    author_name: z.string().max(255).nullable(),
    creation_date: date,
    modification_date: date,
    user_notification: z.boolean().nullable().optional(),
    author_email: z.string().max(320).nullable().optional(),
    // plone.exportimport does not write it (its comments are published); this suite's export does, when not published.
    review_state: z.string().max(50).optional(),
  })
  .passthrough();
export type ExportComment = z.infer<typeof commentSchema>;

export const discussionsSchema = z.record(hexUid, z.object({ items: z.array(commentSchema) }).passthrough());
export type ExportDiscussions = z.infer<typeof discussionsSchema>;
/** One object's entry of discussions.json, by its UID. */
export type ExportConversation = [uid: string, conversation: ExportDiscussions[string]];
export const relationsSchema = z.array(
  z.object({ from_attribute: z.string().min(1).max(100), from_uuid: hexUid, to_uuid: hexUid }),
);
export type ExportRelations = z.infer<typeof relationsSchema>;
export const translationsSchema = z.array(
  z.object({ canonical: hexUid, translations: z.record(z.string().min(1).max(20), hexUid) }),
);
export type ExportTranslations = z.infer<typeof translationsSchema>;
export const redirectsSchema = z.record(z.string().startsWith('/').max(4096), z.string().startsWith('/').max(4096));
export type ExportRedirects = z.infer<typeof redirectsSchema>;
export const principalsSchema = z.object({
  groups: z
    .array(
      z.object({
        groupid: principalId,
        title: z.string().nullable().default(''),
        description: z.string().nullable().default(''),
        email: z.string().nullable().default(''),
        roles: z.array(z.string()).default([]),
        groups: z.array(principalId).default([]),
        principals: z.array(principalId).default([]),
      }),
    )
    .default([]),
  members: z
    .array(
      z.object({
        username: principalId,
        // plone.exportimport writes it (the name the user logs in with); the import here does not read it.
        login_name: z.string().max(256).optional(),
        fullname: z.string().nullable().default(''),
        email: z.string().nullable().default(''),
        description: z.string().nullable().default(''),
        home_page: z.string().nullable().default(''),
        location: z.string().nullable().default(''),
        password: z.string().nullable().optional(),
        roles: z.array(z.string()).default([]),
        groups: z.array(principalId).default([]),
      }),
    )
    .default([]),
});
export type ExportPrincipals = z.infer<typeof principalsSchema>;

/** An export that does not hold what the format says; names the file and the first problem, never its content. */
export class ExportFormatError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'ExportFormatError';
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.map(String).join('.').slice(0, 200);
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** One object of the export, with the path it has in the site ("/" for the site root). */
export interface ReadItem {
  dataFile: string;
  path: string;
  isSiteRoot: boolean;
  item: ExportItem;
}

export class PloneExport {
  private constructor(
    readonly folder: string,
    readonly metadata: ExportMetadata,
  ) {}

  /** Reads and checks content/__metadata__.json; nothing else is read until asked for. */
  static async open(folder: string): Promise<PloneExport> {
    const root = resolve(folder);
    const metadata = await readJson(root, join('content', '__metadata__.json'), metadataSchema);
    if (metadata === undefined) throw new ExportFormatError('content/__metadata__.json', 'missing: not an export');
    if (metadata.__version__.split('.')[0] !== FORMAT_VERSION.split('.')[0])
      throw new ExportFormatError('content/__metadata__.json', `format version ${metadata.__version__} is not 1.x`);
    return new PloneExport(root, metadata);
  }

  get itemCount(): number {
    return this.metadata._data_files_.length;
  }

  /**
   * The objects in the order of `_data_files_` (the exporter writes a container before what it holds), one
   * file read at a time.
   */
  async *items(): AsyncGenerator<ReadItem> {
    for (const dataFile of this.metadata._data_files_) {
      const name = `content/${dataFile}`;
      const item = await readJson(this.folder, name, itemSchema);
      if (item === undefined) throw new ExportFormatError(name, 'listed in __metadata__.json but missing');
      const folderName = dataFile.slice(0, dataFile.indexOf('/'));
      const isSiteRoot = folderName === SITE_ROOT_FOLDER;
      if (isSiteRoot !== (item['@type'] === SITE_ROOT_TYPE))
        throw new ExportFormatError(name, `a ${item['@type']} in the folder ${folderName}`);
      if (!isSiteRoot && item.UID !== folderName)
        throw new ExportFormatError(name, `UID ${item.UID} is not its folder's name`);
      const path = isSiteRoot ? '/' : item['@id'];
      if (!isSiteRoot && !path.endsWith(`/${item.id}`))
        throw new ExportFormatError(name, `@id does not end with its id "${item.id.slice(0, 100)}"`);
      for (const [field, value] of Object.entries(item)) {
        if (!isBlobValue(value)) continue;
        if (!value.blob_path.startsWith(`${item.UID}/${field}/`))
          throw new ExportFormatError(name, `${field}.blob_path is not under ${item.UID}/${field}/`);
        if (!this.metadata._blob_files_.includes(value.blob_path))
          throw new ExportFormatError(name, `${field}.blob_path is not listed in __metadata__.json`);
      }
      yield { dataFile, path, isSiteRoot, item };
    }
  }

  /** The bytes of a blob listed in the metadata, as a stream. */
  blob(blobPath: string): Readable {
    if (!this.metadata._blob_files_.includes(blobPath))
      throw new ExportFormatError('content/__metadata__.json', 'a blob that is not listed was asked for');
    return createReadStream(this.insideContent(blobPath));
  }

  /** The blob file's absolute path; refuses one outside content/ (the schema already refuses `..`). */
  private insideContent(blobPath: string): string {
    const file = pathInside(join(this.folder, 'content'), blobPath);
    if (file === null)
      throw new ExportFormatError('content/__metadata__.json', 'a blob path leaves the content folder');
    return file;
  }

  /**
   * Reads every file the export lists, as an import will, without keeping any: the first problem (a file listed
   * but missing, one the format refuses) is thrown before anything is imported, rather than half-way through.
   */
  async check(): Promise<void> {
    for await (const _item of this.items());
    for (const blobPath of this.metadata._blob_files_) {
      const found = await stat(this.insideContent(blobPath)).catch(() => null);
      if (!found?.isFile())
        throw new ExportFormatError(`content/${blobPath}`, 'listed in __metadata__.json but missing');
    }
    await this.principals();
    await this.discussions();
    await this.relations();
    await this.translations();
    await this.redirects();
  }

  async principals(): Promise<ExportPrincipals> {
    return (await readJson(this.folder, 'principals.json', principalsSchema)) ?? { groups: [], members: [] };
  }

  async discussions(): Promise<z.infer<typeof discussionsSchema>> {
    return (await readJson(this.folder, 'discussions.json', discussionsSchema)) ?? {};
  }

  async relations(): Promise<z.infer<typeof relationsSchema>> {
    return (await readJson(this.folder, 'relations.json', relationsSchema)) ?? [];
  }

  async translations(): Promise<z.infer<typeof translationsSchema>> {
    return (await readJson(this.folder, 'translations.json', translationsSchema)) ?? [];
  }

  async redirects(): Promise<z.infer<typeof redirectsSchema>> {
    return (await readJson(this.folder, 'redirects.json', redirectsSchema)) ?? {};
  }
}

/** `rel` (`/`-separated) resolved under `base`, or null when it would leave it. */
export function pathInside(base: string, rel: string): string | null {
  const file = resolve(base, rel);
  const back = relative(base, file);
  if (back === '' || back.startsWith('..') || back.includes(`..${sep}`) || resolve(base, back) !== file) return null;
  return file;
}

export function isBlobValue(value: unknown): value is BlobValue {
  return blobValueSchema.safeParse(value).success;
}

/** A file of the export parsed and checked; undefined when it does not exist (the format makes each optional). */
async function readJson<T extends z.ZodTypeAny>(
  folder: string,
  name: string,
  schema: T,
): Promise<z.infer<T> | undefined> {
  let text: string;
  try {
    text = await readFile(join(folder, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ExportFormatError(name, 'not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ExportFormatError(name, firstIssue(parsed.error));
  return parsed.data as z.infer<T>;
}
