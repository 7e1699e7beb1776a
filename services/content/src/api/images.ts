/**
 * `GET <context>/@@images/<field>`: the original image of an image field, inline; `@@images/<field>/<scale>` one
 * of its scales (made on first request, then kept); `@@images/<field>-<width>-<hash>.<ext>` a scale by its unique
 * URL (the one serialized in `scales`), which never changes meaning and so may be cached for good.
 */
import { notFound } from '@cms/shared';
import { originalHash, parseScaleFile, scaledSize, scaleHash, scalable } from '../domain/files';
import type { ContentDoc } from '../domain/content';
import { using, type ContentDeps } from './declarations';
import { fileField, selectionResponse, type FileSelection } from './file-response';

const { endpoint, operation } = using('files', 'settings', 'types');

/** A unique scale URL names one image's one size for good. */
const FOREVER = 'public, max-age=31536000, immutable';

/** What `@@images[/<field>[/<scale>]]` or a unique scale URL names. */
export async function imageSelection(
  doc: ContentDoc,
  params: { field?: string; scale?: string },
  requestId: string,
  deps: Pick<ContentDeps, 'settings' | 'types'>,
): Promise<FileSelection> {
  const { scaleSizes } = await deps.settings.current(requestId);
  const unique = params.field !== undefined ? parseScaleFile(params.field) : null;
  if (unique && params.scale === undefined) {
    const { kind, value } = fileField(doc, '@@images', unique.field, deps);
    if (kind === 'image' && unique.hash === originalHash(value) && unique.width === (value.width ?? 0)) {
      return { kind: 'file', value, disposition: 'inline' };
    }
    const size = kind === 'image' && scalable(value) ? scaleSizes.map((s) => scaledSize(value, s)) : [];
    const match = size.find((s) => s.width === unique.width && scaleHash(value, s.width, s.height) === unique.hash);
    if (!match) throw notFound('No such scale of this image (the image may have changed since)');
    return { kind: 'scale', value, width: match.width, height: match.height, cacheControl: FOREVER };
  }
  const { field, kind, value } = fileField(doc, '@@images', params.field, deps);
  if (kind !== 'image') throw notFound(`Field "${field.slice(0, 100)}" is not an image field`);
  if (params.scale === undefined) return { kind: 'file', value, disposition: 'inline' };
  const size = scaleSizes.find((s) => s.name === params.scale);
  if (!size) throw notFound(`No scale named "${params.scale.slice(0, 100)}"`);
  // A vector image is its own scale.
  if (!scalable(value)) return { kind: 'file', value, disposition: 'inline' };
  const { width, height } = scaledSize(value, size);
  return { kind: 'scale', value, width, height, cacheControl: 'no-cache' };
}

export const images = endpoint({
  name: 'images',
  service: 'content',
  context: 'content',
  cache: 'file',
  fileHop: 'download',
  operations: {
    GET: operation({
      summary: 'An image field’s original (the type’s primary one without a name), or one of its scales',
      paths: ['', ':field', ':field/:scale'],
      permission: 'View',
      handle: async (call, deps) =>
        selectionResponse(call, await imageSelection(call.context, call.params, call.requestId, deps), deps),
    }),
  },
});
