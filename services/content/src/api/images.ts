/** `GET <context>/@@images/<field>`: the original image of an image field, inline. */
import { notFound } from '@cms/shared';
import { endpoint, operation } from './declarations';
import { fileField, fileResponse } from './file-response';

export const images = endpoint({
  name: 'images',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'An image field’s original (the type’s primary one without a name)',
      paths: ['', ':field', ':field/:scale'],
      permission: 'View',
      handle: async (call, deps) => {
        const { field, kind, value } = fileField(call.context, '@@images', call.params.field, deps);
        if (kind !== 'image') throw notFound(`Field "${field.slice(0, 100)}" is not an image field`);
        if (call.params.scale !== undefined) {
          throw notFound(`Image scales are not produced; the original is at @@images/${field}`);
        }
        return fileResponse(call, value, 'inline', deps);
      },
    }),
  },
});
