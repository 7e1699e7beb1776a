/** `@move`: POST to the target folder; moves each source into it; 200 with `[{source, target}]`. */
import { callerOf } from './caller';
import { using } from './declarations';
import { relocationBody, sourcesOf } from './relocation';

const { endpoint, operation } = using('tree');

export const move = endpoint({
  name: 'move',
  service: 'content',
  context: 'content',
  operations: {
    POST: operation({
      summary: 'Moves the sources into the context',
      permission: 'Add portal content',
      body: relocationBody,
      handle: async (call, { tree }) => ({
        status: 200,
        body: await tree.move(call.context, sourcesOf(call.body), callerOf(call)),
      }),
    }),
  },
});
