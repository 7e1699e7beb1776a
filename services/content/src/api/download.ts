/** `GET <context>/@@download/<field>[/<filename>]`: the bytes of a file field, as an attachment. */
import { endpoint, operation } from './declarations';
import { fileField, fileResponse } from './file-response';

export const download = endpoint({
  name: 'download',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'Downloads a file field (the type’s primary one without a name)',
      // `<field>/<filename>` is how links name the file; the name is not checked.
      paths: ['', ':field', ':field/:filename'],
      permission: 'View',
      handle: async (call, deps) => {
        const { value } = fileField(call.context, '@@download', call.params.field, deps);
        return fileResponse(call, value, 'attachment', deps);
      },
    }),
  },
});
