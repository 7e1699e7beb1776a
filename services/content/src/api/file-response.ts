/**
 * What `@@download` and `@@images` share: finding the file field the URL names, the bytes it selects (the file, or
 * one of an image's scales), and answering them inside the gRPC response. The gateway streams the same selections
 * over the HTTP hop instead (file-hop.ts), with ranges and validators.
 */
import { encodeComponent, notFound, type EndpointCall, type HttpResult } from '@cms/shared';
import { asFileValue, PRIMARY_FILE_FIELD, type FileKind, type FileValue } from '../domain/files';
import { outputOf } from '../domain/files';
import type { ContentDoc } from '../domain/content';
import type { ContentDeps } from './declarations';

/**
 * What a served file may do when opened directly: nothing active (an uploaded HTML or SVG file must not run
 * script under the site's origin).
 */
export const SANDBOX = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/**
 * RFC 5987 `filename*`: UTF-8, percent-encoded, with the characters encodeURIComponent leaves alone encoded too;
 * a lone surrogate (JSON can carry one into a stored filename) becomes U+FFFD instead of throwing.
 */
export function filenameStar(filename: string): string {
  const encoded = encodeComponent(filename).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `UTF-8''${encoded}`;
}
/** The bytes a file URL names: a field's file (as an attachment or inline), or one scale of an image. */
export type FileSelection =
  | { kind: 'file'; value: FileValue; disposition: 'attachment' | 'inline' }
  | { kind: 'scale'; value: FileValue; width: number; height: number; cacheControl: string };

/** The selection inside the gRPC response (bytes read whole). */
export function selectionResponse(
  call: EndpointCall<ContentDoc, unknown, unknown, unknown>,
  selection: FileSelection,
  deps: Pick<ContentDeps, 'files'>,
): Promise<HttpResult> {
  return selection.kind === 'file'
    ? fileResponse(call, selection.value, selection.disposition, deps)
    : scaleResponse(call, selection.value, selection.width, selection.height, selection.cacheControl, deps);
}

/** The file field the URL names (or the type's primary field) and its value; 404 when it holds no file. */
export function fileField(
  doc: ContentDoc,
  view: string,
  named: string | undefined,
  { types }: Pick<ContentDeps, 'types'>,
) {
  const field = named ?? PRIMARY_FILE_FIELD[doc.portal_type];
  if (!field) throw notFound(`Name a field: ${view}/<field> (a ${doc.portal_type} has no primary file field)`);
  const kind = types.find(doc.portal_type)?.field(field)?.kind;
  const value = kind === 'file' || kind === 'image' ? asFileValue(doc.fields?.[field]) : null;
  if (!value) throw notFound(`No file in field "${field.slice(0, 100)}"`);
  return { field, kind: kind as FileKind, value };
}

/** The bytes of a file value, as an attachment (downloads) or inline (images). */
export async function fileResponse(
  call: EndpointCall<ContentDoc, unknown, unknown, unknown>,
  value: FileValue,
  disposition: 'attachment' | 'inline',
  { files }: Pick<ContentDeps, 'files'>,
): Promise<HttpResult> {
  const bytes = await files.read(value);
  if (!bytes) {
    call.log.error({ blob: value.blob_id, path: call.contextPath }, 'the blob of a file field is missing');
    throw notFound(`The bytes of "${value.filename}" are missing`);
  }
  return {
    status: 200,
    raw: bytes,
    headers: {
      'Content-Type': value.content_type,
      'Content-Length': String(bytes.length),
      'Content-Disposition': `${disposition}; filename*=${filenameStar(value.filename)}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': SANDBOX,
    },
  };
}

/** A scale of an image, inline, with the given caching. */
export async function scaleResponse(
  call: EndpointCall<ContentDoc, unknown, unknown, unknown>,
  value: FileValue,
  width: number,
  height: number,
  cacheControl: string,
  { files }: Pick<ContentDeps, 'files'>,
): Promise<HttpResult> {
  const bytes = await files.readScale(value, width, height);
  if (!bytes) {
    call.log.error({ blob: value.blob_id, path: call.contextPath }, 'the blob of an image field is missing');
    throw notFound(`The bytes of "${value.filename}" are missing`);
  }
  return {
    status: 200,
    raw: bytes,
    headers: {
      'Content-Type': outputOf(value).type,
      'Content-Length': String(bytes.length),
      'Content-Disposition': `inline; filename*=${filenameStar(value.filename)}`,
      'Cache-Control': cacheControl,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': SANDBOX,
    },
  };
}
