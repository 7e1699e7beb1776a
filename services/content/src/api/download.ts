/** `GET <context>/@@download/<field>[/<filename>]`: the bytes of a file field, as an attachment. */
import type { ContentDoc } from '../domain/content';
import { using, type ContentDeps } from './declarations';
import { fileField, selectionResponse, type FileSelection } from './file-response';

const { endpoint, operation } = using('files', 'types');

/** What `@@download[/<field>]` names (the type's primary file field without a name). */
export function downloadSelection(
  doc: ContentDoc,
  field: string | undefined,
  deps: Pick<ContentDeps, 'types'>,
): FileSelection {
  const { value } = fileField(doc, '@@download', field, deps);
  return { kind: 'file', value, disposition: 'attachment' };
}

export const download = endpoint({
  name: 'download',
  service: 'content',
  context: 'content',
  cache: 'file',
  fileHop: 'download',
  operations: {
    GET: operation({
      summary: 'Downloads a file field (the type’s primary one without a name)',
      // `<field>/<filename>` is how links name the file; the name is not checked.
      paths: ['', ':field', ':field/:filename'],
      permission: 'View',
      handle: async (call, deps) =>
        selectionResponse(call, downloadSelection(call.context, call.params.field, deps), deps),
    }),
  },
});
