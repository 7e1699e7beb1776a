/**
 * `@type/<type>/<field_or_fieldset>`: the spelling the specification's listing uses for one field or fieldset of
 * a type; the same operations as `@types/<type>/<name>` (api/types.ts).
 */
import { using } from './declarations';
import { TYPE_SCHEMAS, types } from './types';

// Its operations are `@types`' own: they use what those use.
const { endpoint, operation } = using(...TYPE_SCHEMAS);

const ONE = [':type/:name'];
const { GET, PATCH, DELETE } = types.operations;

export const type = endpoint({
  name: 'type',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({ ...GET!, summary: 'One field or fieldset of a type (as `@types/<type>/<name>`)', paths: ONE }),
    PATCH: operation({ ...PATCH!, summary: 'Changes one generated field or fieldset of a type', paths: ONE }),
    DELETE: operation({ ...DELETE!, summary: 'Removes one generated field or fieldset of a type', paths: ONE }),
  },
});
