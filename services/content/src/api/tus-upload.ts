/**
 * `@tus-upload`: resumable uploads (TUS 1.0.0, as the original platform implements it; domain/files/tus-uploads.ts).
 * `POST <folder>/@tus-upload` announces an upload (`Upload-Length`, `Upload-Metadata`) and answers 201 with its
 * `Location`, `<folder>/@tus-upload/<id>`; `HEAD` of that tells the offset received; `PATCH` appends at
 * `Upload-Offset`, and the one bringing the last byte creates the File or Image (or, for an upload announced with
 * `@tus-replace`, replaces the object's file), answering its URL in `Location`. `OPTIONS` is the gateway's (it
 * describes the protocol only). The gateway sends `HEAD` and `PATCH` over the file hop (file-hop.ts), so that the
 * bytes stream into the blob store and are never held whole; the gRPC operations below answer the same, for a body
 * the gateway has read.
 */
import { Readable } from 'node:stream';
import {
  AppError,
  badRequest,
  neutralName,
  urlOf,
  validationError,
  type EndpointCall,
  type HttpResult,
} from '@cms/shared';
import { z } from 'zod';
import type { Caller } from '../domain/content';
import { PRIMARY_FILE_FIELD, StoredFile, type FileKind, type FileValue } from '../domain/files';
import type { ContentDoc } from '../domain/content';
import {
  parseTusMetadata,
  TUS_EXTENSIONS,
  TUS_VERSION,
  TusUploads,
  type TusMetadata,
  type TusMode,
  type TusUploadRecord,
} from '../domain/files';
import { callerOf } from './caller';
import { using, type ContentDeps } from './declarations';

/** The collaborators a resumable upload uses, whichever way it comes (`@tus-upload`, `@tus-replace`, the file hop). */
export const UPLOADING = ['commands', 'translations', 'tus', 'types'] as const;
type UploadDeps = Pick<ContentDeps, (typeof UPLOADING)[number]>;

const { endpoint, operation } = using(...UPLOADING);

/** The media type of a `PATCH` body (TUS). */
const OFFSET_STREAM = 'application/offset+octet-stream';
/** An upload's id; any other segment names no upload (404 from the store lookup, as an unknown id). */
const uploadParams = z.object({ id: z.string().max(100) });

/** What a TUS request carries besides its body, read from gRPC or from the hop alike. */
export interface TusRequest {
  context: ContentDoc;
  caller: Caller;
  header(name: string): string | undefined;
}

/** 412 unless the client speaks this protocol version (`Tus-Resumable`), with the version spoken. */
function checkVersion(request: TusRequest): void {
  if (request.header('tus-resumable') !== TUS_VERSION) {
    throw new AppError(
      'PreconditionFailed',
      `Unsupported TUS version: send Tus-Resumable: ${TUS_VERSION}`,
      undefined,
      undefined,
      { 'Tus-Version': TUS_VERSION, 'Tus-Resumable': TUS_VERSION },
    );
  }
}

/** A non-negative integer header (`Upload-Length`, `Upload-Offset`); 400 naming it otherwise. */
function integerHeader(request: TusRequest, name: string, label: string): number {
  const value = request.header(name);
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) throw badRequest(`Missing or invalid ${label} header`);
  return Number(value.trim());
}

/** The field an upload fills: the one named in its metadata, else the type's primary file field. */
function fileFieldOf(typeName: string, named: string | undefined, deps: UploadDeps): { name: string; kind: FileKind } {
  const type = deps.types.get(typeName);
  const field =
    type.field(named ?? PRIMARY_FILE_FIELD[type.name] ?? '') ??
    (named === undefined ? type.fields.find((f) => f.kind === 'file' || f.kind === 'image') : undefined);
  if (!field || (field.kind !== 'file' && field.kind !== 'image')) {
    const reason = named
      ? `"${named.slice(0, 100)}" is not a file field of ${type.title}`
      : `a ${type.title} has no file`;
    throw badRequest(`Cannot upload here: ${reason}`);
  }
  return { name: field.name, kind: field.kind };
}

/** The type a new upload creates: `@type` of its metadata, else Image for an image's media type, else File. */
function typeToCreate(metadata: TusMetadata, folder: ContentDoc, deps: UploadDeps): string {
  const name = metadata.type
    ? neutralName(metadata.type)
    : metadata.contentType?.toLowerCase().startsWith('image/')
      ? 'Image'
      : 'File';
  const type = deps.types.find(name);
  const allowed = deps.types.allowedIn(deps.types.get(folder.portal_type)).some((t) => t.name === name);
  if (!type?.addable || !allowed) throw badRequest(`Cannot add a ${name.slice(0, 100)} here`);
  return type.name;
}

/** `OPTIONS`: the protocol version, its extensions and the largest upload (TUS discovery). */
export function tusOptions(deps: UploadDeps): Record<string, string> {
  return {
    'Tus-Resumable': TUS_VERSION,
    'Tus-Version': TUS_VERSION,
    'Tus-Extension': TUS_EXTENSIONS,
    'Tus-Max-Size': String(deps.tus.maxBytes),
  };
}

/** `POST` of `@tus-upload` or `@tus-replace`: announces an upload on the context. */
export async function announceUpload(request: TusRequest, mode: TusMode, deps: UploadDeps): Promise<HttpResult> {
  checkVersion(request);
  const length = integerHeader(request, 'upload-length', 'Upload-Length');
  const metadata = parseTusMetadata(request.header('upload-metadata'));
  // What the upload will fill is checked now, not after its last byte.
  const typeName = mode === 'create' ? typeToCreate(metadata, request.context, deps) : request.context.portal_type;
  fileFieldOf(typeName, metadata.field, deps);
  const owner = request.caller.principal?.id ?? '';
  const record = await deps.tus.start(request.context._id, owner, mode, length, metadata);
  const location = `${urlOf(request.caller.publicUrl, request.context.path ?? '/')}/@tus-upload/${record._id}`;
  return {
    status: 201,
    headers: {
      Location: location,
      'Tus-Resumable': TUS_VERSION,
      'Upload-Expires': TusUploads.expiresHeader(record),
    },
  };
}

/** `HEAD` of an upload: how many of its bytes have arrived. */
export async function uploadStatus(request: TusRequest, id: string, deps: UploadDeps): Promise<HttpResult> {
  checkVersion(request);
  const record = await findUpload(request, id, deps);
  return {
    status: 200,
    headers: {
      'Tus-Resumable': TUS_VERSION,
      'Upload-Offset': String(record.offset),
      'Upload-Length': String(record.length),
      'Upload-Expires': TusUploads.expiresHeader(record),
      'Cache-Control': 'no-store',
    },
  };
}

/** `PATCH` of an upload: appends `body` at `Upload-Offset`; the last bytes make (or replace) the content. */
export async function appendUpload(
  request: TusRequest,
  id: string,
  body: AsyncIterable<Uint8Array>,
  declaredLength: number | undefined,
  deps: UploadDeps,
): Promise<HttpResult> {
  checkVersion(request);
  const record = await findUpload(request, id, deps);
  if ((request.header('content-type') ?? '').split(';')[0].trim().toLowerCase() !== OFFSET_STREAM) {
    throw badRequest(`Missing or invalid Content-Type header: send ${OFFSET_STREAM}`);
  }
  const offset = integerHeader(request, 'upload-offset', 'Upload-Offset');
  const after = await deps.tus.append(record, offset, body, declaredLength);
  const headers: Record<string, string> = { 'Tus-Resumable': TUS_VERSION, 'Upload-Offset': String(after.offset) };
  if (after.offset < after.length) {
    return { status: 204, headers: { ...headers, 'Upload-Expires': TusUploads.expiresHeader(after) } };
  }
  const done = await complete(request, after, deps);
  return { status: 204, headers: { ...headers, Location: urlOf(request.caller.publicUrl, done.path ?? '/') } };
}

/**
 * A finished upload becomes content through the content's one write path: a new object in the folder, or the
 * object's file replaced. Whatever the outcome, the upload is used up (a refused one must be sent again).
 */
async function complete(request: TusRequest, record: TusUploadRecord, deps: UploadDeps): Promise<ContentDoc> {
  const { context, caller } = request;
  const typeName = record.mode === 'create' ? typeToCreate(record.metadata, context, deps) : context.portal_type;
  const field = fileFieldOf(typeName, record.metadata.field, deps);
  await deps.tus.claim(record);
  let value: FileValue | undefined;
  try {
    value = await deps.tus.assemble(record, field.kind, field.name);
    const stored = new StoredFile(value);
    let doc: ContentDoc;
    if (record.mode === 'create') {
      const type = deps.types.get(typeName);
      const language = await deps.translations.languageForNew(context, caller.requestId);
      // The schema gives the new object its defaults; the file itself is already stored, so a placeholder of an
      // upload stands in for it while the schema is checked.
      const placeholder = {
        data: '',
        encoding: 'base64',
        filename: value.filename,
        'content-type': value.content_type,
      };
      const values = deps.types
        .createSchema(type)
        .safeParse({ '@type': type.name, [field.name]: placeholder, ...(language ? { language } : {}) });
      if (!values.success) throw validationError(values.error);
      ({ doc } = await deps.commands.create(context, type, { ...values.data, [field.name]: stored }, caller));
    } else {
      doc = await deps.commands.update(context, { values: { [field.name]: stored } }, caller);
    }
    await deps.tus.finish(record, value.blob_id);
    return doc;
  } catch (error) {
    await deps.tus.fail(record, value?.blob_id);
    throw error;
  }
}

function findUpload(request: TusRequest, id: string, deps: UploadDeps): Promise<TusUploadRecord> {
  return deps.tus.find(id, request.context._id, request.caller.principal?.id ?? '');
}

/** A gRPC call as a TUS request. */
function requestOf(call: EndpointCall<ContentDoc, unknown, unknown, unknown>): TusRequest {
  return { context: call.context, caller: callerOf(call), header: (name) => call.header(name) };
}

export const tusUpload = endpoint({
  name: 'tus-upload',
  service: 'content',
  context: 'content',
  fileHop: 'upload',
  operations: {
    POST: operation({
      summary: 'Announces a resumable (TUS) upload of a new File or Image into the folder; 201 with its Location',
      permission: 'Add portal content',
      handle: async (call, deps) => announceUpload(requestOf(call), 'create', deps),
    }),
    GET: operation({
      summary: 'How many bytes of the upload have arrived (`HEAD`: `Upload-Offset`, `Upload-Length`)',
      paths: [':id'],
      // View of the folder, as the file hop checks it for HEAD; beyond that the upload is its announcer's only (who
      // needed Add or Modify portal content to announce it): anyone else is told there is no such upload.
      permission: 'View',
      params: uploadParams,
      handle: async (call, deps) => uploadStatus(requestOf(call), call.params.id, deps),
    }),
    PATCH: operation({
      summary: 'Appends bytes at `Upload-Offset`; the last ones create the File or Image (its URL in `Location`)',
      paths: [':id'],
      // As GET; the write that completes the upload checks Add (or Modify) portal content again.
      permission: 'View',
      params: uploadParams,
      handle: async (call, deps) => {
        const body = call.request.body;
        return appendUpload(requestOf(call), call.params.id, Readable.from([body]), body.length, deps);
      },
    }),
  },
});
