/**
 * `@tus-replace`: announces a resumable (TUS) upload that replaces the file of the object itself (its primary file
 * field, or `fieldname` of `Upload-Metadata`); 400 when the object has no such field. The upload then lives at
 * `<object>/@tus-upload/<id>` as every upload does (tus-upload.ts), and its last `PATCH` replaces the file.
 */
import { callerOf } from './caller';
import { using } from './declarations';
import { UPLOADING, announceUpload } from './tus-upload';

const { endpoint, operation } = using(...UPLOADING);

export const tusReplace = endpoint({
  name: 'tus-replace',
  service: 'content',
  context: 'content',
  fileHop: 'upload',
  operations: {
    POST: operation({
      summary: "Announces a resumable (TUS) upload replacing the object's file; 201 with its Location",
      permission: 'Modify portal content',
      handle: async (call, deps) =>
        announceUpload(
          { context: call.context, caller: callerOf(call), header: (name) => call.header(name) },
          'replace',
          deps,
        ),
    }),
  },
});
