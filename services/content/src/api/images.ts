/**
 * `GET <context>/@@images/<field>`: the original image of an image field, inline; `@@images/<field>/<scale>` one
 * of its scales (made on first request, then kept); `@@images/<field>-<width>-<hash>.<ext>` a scale by its unique
 * URL (the one serialized in `scales`), which never changes meaning and so may be cached for good.
 */
import { notFound } from '@cms/shared';
import { DEFAULT_SIZES, parseScaleFile, scaledSize, scaleHash, scalable } from '../domain/image-scales';
import { endpoint, operation } from './declarations';
import { fileField, fileResponse, scaleResponse } from './file-response';

/** A unique scale URL names one image's one size for good. */
const FOREVER = 'public, max-age=31536000, immutable';

export const images = endpoint({
  name: 'images',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'An image field’s original (the type’s primary one without a name), or one of its scales',
      paths: ['', ':field', ':field/:scale'],
      permission: 'View',
      handle: async (call, deps) => {
        const unique = call.params.field !== undefined ? parseScaleFile(call.params.field) : null;
        if (unique && call.params.scale === undefined) {
          const { kind, value } = fileField(call.context, '@@images', unique.field, deps);
          const size = kind === 'image' && scalable(value) ? DEFAULT_SIZES.map((s) => scaledSize(value, s)) : [];
          const match = size.find(
            (s) => s.width === unique.width && scaleHash(value, s.width, s.height) === unique.hash,
          );
          if (!match) throw notFound('No such scale of this image (the image may have changed since)');
          return scaleResponse(call, value, match.width, match.height, FOREVER, deps);
        }
        const { field, kind, value } = fileField(call.context, '@@images', call.params.field, deps);
        if (kind !== 'image') throw notFound(`Field "${field.slice(0, 100)}" is not an image field`);
        if (call.params.scale === undefined) return fileResponse(call, value, 'inline', deps);
        const size = DEFAULT_SIZES.find((s) => s.name === call.params.scale);
        if (!size) throw notFound(`No scale named "${call.params.scale.slice(0, 100)}"`);
        // A vector image is its own scale.
        if (!scalable(value)) return fileResponse(call, value, 'inline', deps);
        const { width, height } = scaledSize(value, size);
        return scaleResponse(call, value, width, height, 'no-cache', deps);
      },
    }),
  },
});
