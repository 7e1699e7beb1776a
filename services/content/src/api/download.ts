/**
 * `GET <context>/@@download/<field>` (an attachment) and
 * `GET <context>/@@images/<field>` (the original image, inline): the bytes of a
 * file or image field, for whoever may view the object.
 */
import { notFound, type EndpointTable, type RequestContext } from '@cms/shared';
import { authorize } from '../domain/access';
import type { ContentCommands } from '../domain/content-commands';
import { asFileValue, PRIMARY_FILE_FIELD, type FileBytes, type FileKind, type FileValue } from '../domain/files';
import { findContentType } from '../domain/types';

/**
 * What a served file may do when opened directly: nothing active (an uploaded HTML or SVG file must not run
 * script under the site's origin).
 */
const SANDBOX = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** RFC 5987 `filename*`: UTF-8, percent-encoded, with the characters encodeURIComponent leaves alone encoded too. */
function filenameStar(filename: string): string {
  const encoded = encodeURIComponent(filename).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `UTF-8''${encoded}`;
}

export function downloadEndpoints(commands: ContentCommands, files: FileBytes): EndpointTable {
  /** The object, checked for View, and the file field the URL names (or its type's primary field). */
  async function fieldOf(ctx: RequestContext, view: string, named: string | undefined) {
    const doc = await commands.find(ctx.contextPath, ctx.publicUrl);
    authorize(ctx.principal, 'View', doc);
    const field = named ?? PRIMARY_FILE_FIELD[doc.portal_type];
    if (!field) throw notFound(`Name a field: ${view}/<field> (a ${doc.portal_type} has no primary file field)`);
    const kind = findContentType(doc.portal_type)?.field(field)?.kind;
    const value = kind === 'file' || kind === 'image' ? asFileValue(doc.fields?.[field]) : null;
    if (!value) throw notFound(`No file in field "${field}"`);
    return { field, kind: kind as FileKind, value };
  }

  async function send(ctx: RequestContext, value: FileValue, disposition: 'attachment' | 'inline') {
    const bytes = await files.read(value);
    if (!bytes) {
      ctx.log.error({ blob: value.blob_id, path: ctx.contextPath }, 'the blob of a file field is missing');
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

  return {
    download: {
      GET: async (ctx) => {
        // `@@download/<field>/<filename>` is how links name the file; the name is not checked.
        const [field, ...rest] = ctx.request.sub_path;
        if (rest.length > 1) throw notFound('Not found: @@download/<field>[/<filename>]');
        return send(ctx, (await fieldOf(ctx, '@@download', field)).value, 'attachment');
      },
    },
    images: {
      GET: async (ctx) => {
        const [named, scale, ...rest] = ctx.request.sub_path;
        const { field, kind, value } = await fieldOf(ctx, '@@images', named);
        if (kind !== 'image') throw notFound(`Field "${field}" is not an image field`);
        if (scale !== undefined || rest.length) {
          throw notFound(`Image scales are not produced; the original is at @@images/${field}`);
        }
        return send(ctx, value, 'inline');
      },
    },
  };
}
