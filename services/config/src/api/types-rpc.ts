import { badRequest, typeDefinitionToProto, unary, type ConfigServiceHandlers, type Logger } from '@cms/shared';
import type { RecordChanges } from '../domain/changes';
import type { ContentTypes, SchemaEdit } from '../domain/content-types';
import { watchRecords } from './grpc';

/** A request's JSON body; 400 when it is not JSON. */
function bodyOf(json: string): unknown {
  if (json === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw badRequest('The body is not JSON');
  }
}

function editOf(request: { change: string; target: string; body_json: string }): SchemaEdit {
  switch (request.change) {
    case 'SCHEMA_CHANGE_ADD':
      return { change: 'add', body: bodyOf(request.body_json) };
    case 'SCHEMA_CHANGE_UPDATE':
      return { change: 'update', target: request.target, body: bodyOf(request.body_json) };
    case 'SCHEMA_CHANGE_REPLACE':
      return { change: 'replace', body: bodyOf(request.body_json) };
    case 'SCHEMA_CHANGE_REMOVE':
      if (!request.target) throw badRequest('Name the field or fieldset to remove');
      return { change: 'remove', target: request.target };
    default:
      throw badRequest('Unknown schema change');
  }
}

/** The typed RPCs over the content types: their definitions, a stream of what changes, and schema edits. */
export function typeRpcs(
  types: ContentTypes,
  changes: RecordChanges,
  log: Logger,
): Pick<ConfigServiceHandlers, 'ListTypes' | 'WatchTypes' | 'ChangeSchema'> {
  return {
    ListTypes: unary(log, async () => ({
      types: (await types.list()).map(typeDefinitionToProto),
    })),
    // The same stream as WatchRecords (names of what changed; the first, empty message says it is live).
    WatchTypes: watchRecords(changes) as unknown as ConfigServiceHandlers['WatchTypes'],
    ChangeSchema: unary(log, async (request: { type: string; change: string; target: string; body_json: string }) => {
      const result = await types.editSchema(request.type, editOf(request));
      return { created: result.created?.name ?? '', fieldset: result.created?.fieldset ?? false };
    }),
  };
}
