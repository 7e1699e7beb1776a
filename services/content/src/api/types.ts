/**
 * `@types`: the types users may create, each saying whether the caller may add it here; `@types/<type>` is the
 * JSON schema of one type, which clients draw add and edit forms from. Logged-in callers only, as the reference.
 *
 * Schema edits (POST, PATCH, PUT, DELETE, at the site root) are decided by the configuration service, which owns
 * the types (`ChangeSchema`); this service answers them with the schema it then reads back.
 */
import { BASIC_CHALLENGE, clip, notFound, unauthorized, urlOf, type EndpointCall, type HttpResult } from '@cms/shared';
import { z } from 'zod';
import { fieldProperty, fieldsetOf, SCHEMA_MEDIA_TYPE, typeSchema } from '../domain/content';
import { SITE_ROOT_TYPE, type ContentType } from '../domain/types';
import type { ContentDoc } from '../domain/content';
import { using, type ContentDeps } from './declarations';

/** The collaborators of `@types`' operations, which `@type` (api/type.ts) takes too. */
export const TYPE_SCHEMAS = ['expansion', 'settings', 'typeSource', 'types'] as const;

const { endpoint, operation } = using(...TYPE_SCHEMAS);

/** The reference's name of the site root's type, accepted as an alias (addendum §8). */
const TYPE_ALIASES: Readonly<Record<string, string>> = { 'Plone Site': SITE_ROOT_TYPE };

const typeName = z.string().min(1).max(200);
const memberName = z.string().min(1).max(100);
const EDIT_PERMISSION = 'cms.schemaeditor.ManageSchemata';

function findType(deps: Pick<ContentDeps, 'types'>, name: string): ContentType {
  const type = deps.types.find(Object.hasOwn(TYPE_ALIASES, name) ? TYPE_ALIASES[name] : name);
  if (!type) throw notFound(`No content type ${clip(name)}`);
  return type;
}

/** One field (its definition) or fieldset of a type, as `GET @types/<type>/<name>` answers it. */
function member(type: ContentType, name: string, call: EndpointCall<ContentDoc>): unknown {
  const field = type.field(name);
  if (field) return fieldProperty(field, urlOf(call.publicUrl, call.contextPath));
  const fieldset = fieldsetOf(type, name, call.translator.translate);
  if (fieldset) return fieldset;
  throw notFound(`No field or fieldset ${clip(name)} in ${clip(type.name)}`);
}

/**
 * Sends one schema edit to config, then reads the types again (this process's cache was dropped when config
 * answered), so the answer, and the next request, see the edit.
 */
async function editSchema(
  call: EndpointCall<ContentDoc, { type: string; name?: string }, undefined, unknown>,
  deps: Pick<ContentDeps, 'types' | 'typeSource'>,
  change: 'SCHEMA_CHANGE_ADD' | 'SCHEMA_CHANGE_UPDATE' | 'SCHEMA_CHANGE_REPLACE' | 'SCHEMA_CHANGE_REMOVE',
): Promise<{ type: ContentType; created: string }> {
  // Types belong to the site: their schemas are edited at its root.
  if (call.contextPath !== '/') throw notFound('Type schemas are edited at the site root');
  const name = findType(deps, call.params.type).name;
  const result = await deps.typeSource.config.changeSchema(
    { type: name, change, target: call.params.name ?? '', body_json: JSON.stringify(call.body ?? {}) },
    call.requestId,
  );
  await deps.typeSource.refresh(call.requestId);
  return { type: findType(deps, name), created: result.created };
}

const editParams = z.object({ type: typeName, name: memberName.optional() });
const done: HttpResult = { status: 204 };

/** `@types` itself; `@type/<type>/<name>` (api/type.ts) takes its one-field operations. */
export const types = endpoint({
  name: 'types',
  service: 'content',
  context: 'content',
  cache: 'site',
  identifiers: { namedSubPath: true, typeSchemaAnswer: true },
  operations: {
    GET: operation({
      summary:
        'The addable types and whether the caller may add each here; with a type name, its JSON schema; with a field or fieldset name, its definition',
      paths: ['', ':type', ':type/:name'],
      permission: 'View',
      params: z.object({ type: typeName.optional(), name: memberName.optional() }),
      handle: async (call, deps) => {
        const { type: name } = call.params;
        if (name === undefined) return { status: 200, body: await deps.expansion.expand('types', call, call.context) };
        if (!call.principal) throw unauthorized('Authentication required to read type schemas', BASIC_CHALLENGE);
        const type = findType(deps, name);
        if (call.params.name !== undefined) return { status: 200, body: member(type, call.params.name, call) };
        return {
          status: 200,
          body: typeSchema(type, urlOf(call.publicUrl, call.contextPath), call.translator.translate, {
            defaultLanguage: (await deps.settings.current(call.requestId)).defaultLanguage,
          }),
          headers: { 'Content-Type': SCHEMA_MEDIA_TYPE },
        };
      },
    }),
    POST: operation({
      summary: 'Adds a fieldset (`factory: "fieldset"`) or a field of a kind of @vocabularies/Fields to a type',
      paths: [':type'],
      permission: EDIT_PERMISSION,
      params: editParams,
      body: z.unknown(),
      handle: async (call, deps) => {
        const { type, created } = await editSchema(call, deps, 'SCHEMA_CHANGE_ADD');
        return { status: 201, body: member(type, created, call) };
      },
    }),
    PATCH: operation({
      summary: 'Changes the generated fields and fieldsets of a type, or one of them',
      paths: [':type', ':type/:name'],
      permission: EDIT_PERMISSION,
      params: editParams,
      body: z.unknown(),
      handle: async (call, deps) => {
        await editSchema(call, deps, 'SCHEMA_CHANGE_UPDATE');
        return done;
      },
    }),
    PUT: operation({
      summary: 'Replaces the generated fields and fieldsets of a type',
      paths: [':type'],
      permission: EDIT_PERMISSION,
      params: editParams,
      body: z.unknown(),
      handle: async (call, deps) => {
        await editSchema(call, deps, 'SCHEMA_CHANGE_REPLACE');
        return done;
      },
    }),
    DELETE: operation({
      summary: 'Removes a generated field or fieldset of a type',
      paths: [':type/:name'],
      permission: EDIT_PERMISSION,
      params: editParams,
      handle: async (call, deps) => {
        await editSchema(call, deps, 'SCHEMA_CHANGE_REMOVE');
        return done;
      },
    }),
  },
});
