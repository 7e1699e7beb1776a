/** `@copy`: POST to the target folder; copies each source with everything inside it; 200 with `[{source, target}]`. */
import { callerOf } from './caller';
import { using } from './declarations';
import { relocationBody, sourcesOf } from './relocation';

const { endpoint, operation } = using('tree');

export const copy = endpoint({
  name: 'copy',
  service: 'content',
  context: 'content',
  operations: {
    POST: operation({
      summary: 'Copies the sources into the context',
      permission: 'Add portal content',
      body: relocationBody,
      handle: async (call, { tree }) => ({
        status: 200,
        body: await tree.copy(call.context, sourcesOf(call.body), callerOf(call)),
      }),
    }),
  },
});
