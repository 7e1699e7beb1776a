/**
 * `@controlpanels/cms-types`: the content types (list, create, retitle) and one type's settings and behaviors (read,
 * change, remove), two parts of `@controlpanels` (controlpanels.ts). Guarded by `cms.schemaeditor.ManageSchemata`
 * besides the panels' own permission. The original id `dexterity-types` reaches them as `cms-types` (the dispatcher
 * renames a named sub-path, services/shared/src/identifiers/original-identifiers.ts).
 */
import { badRequest, clip, requirePermission, type EndpointCall, type HttpResult } from '@cms/shared';
import { z } from 'zod';
import {
  changedType,
  CMS_TYPES_PANEL,
  cmsTypesUrl,
  newTypeBody,
  typeEntry,
  typePanel,
  typeSettings,
  typesListForm,
  typeTitles,
  type TypeSettings,
} from '../domain/cms-types-panel';
import { endpoint, operation } from './declarations';
import type { ConfigDeps } from './declarations';

type PanelCall = Pick<EndpointCall, 'principal' | 'publicUrl' | 'requestId'>;

const typeName = z.object({ type: z.string().min(1).max(200) });

/**
 * The panel's own permission besides the panels' cms.ManagePortal, the guard of each of its operations (before the
 * body is read). Types belong to the site root.
 */
export function requireSchemaManager(call: Pick<EndpointCall, 'principal'>): void {
  requirePermission(call.principal, 'cms.schemaeditor.ManageSchemata', { state: null, localRoles: [] });
}

export async function readTypes(call: PanelCall, typeName: string | undefined, deps: ConfigDeps): Promise<HttpResult> {
  if (typeName !== undefined) {
    return { status: 200, body: typePanel(await deps.contentTypes.get(typeName), call.publicUrl) };
  }
  const types = await deps.contentTypes.list();
  const counts = await deps.countByType(
    types.map((t) => t.name),
    call.requestId,
  );
  return {
    status: 200,
    body: {
      '@id': cmsTypesUrl(call.publicUrl),
      group: 'Content',
      items: types.map((t) => typeEntry(t, counts[t.name] ?? 0, call.publicUrl)),
      title: 'Content Types',
      ...typesListForm(types, counts),
    },
  };
}

export async function createType(
  call: PanelCall,
  input: z.infer<typeof newTypeBody>,
  deps: ConfigDeps,
): Promise<HttpResult> {
  const created = await deps.contentTypes.create(input.title, input.description);
  return {
    status: 201,
    body: typePanel(created, call.publicUrl),
    headers: { Location: cmsTypesUrl(call.publicUrl, created.name) },
  };
}

export async function changeType(
  call: PanelCall,
  typeName: string,
  input: TypeSettings,
  deps: ConfigDeps,
): Promise<HttpResult> {
  const known = new Set((await deps.contentTypes.list()).map((t) => t.name));
  await deps.contentTypes.update(typeName, (def) => changedType(def, input, known));
  return { status: 204 };
}

export async function removeType(call: PanelCall, typeName: string, deps: ConfigDeps): Promise<HttpResult> {
  await deps.contentTypes.remove(typeName, deps.countByType, call.requestId);
  return { status: 204 };
}

/** The list's form written back: each type named gets that title; all are checked before any changes. */
export async function retitleTypes(
  call: PanelCall,
  titles: z.infer<typeof typeTitles>,
  deps: ConfigDeps,
): Promise<HttpResult> {
  const types = await deps.contentTypes.list();
  const known = new Set(types.map((t) => t.name));
  const unknown = Object.keys(titles).filter((name) => !known.has(name));
  if (unknown.length) {
    throw badRequest(`Unknown content types: ${clip(unknown.join(', '))}`, [
      { field: unknown[0]!, message: 'unknown content type' },
    ]);
  }
  for (const type of types) {
    const title = titles[type.name];
    if (title !== undefined && title !== type.title) {
      await deps.contentTypes.update(type.name, (def) => ({ ...def, title }));
    }
  }
  return { status: 204 };
}

/** The types panel itself: the list of types as a form, a new type, and the list's titles written back. */
export const contentTypesPanel = endpoint({
  name: 'controlpanels',
  service: 'config',
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'The content types, with how many objects each has, and their titles as a form',
      paths: [CMS_TYPES_PANEL],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      handle: async (call, deps) => readTypes(call, undefined, deps),
    }),
    POST: operation({
      summary: 'Creates a content type',
      paths: [CMS_TYPES_PANEL],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      body: newTypeBody,
      handle: async (call, deps) => createType(call, call.body, deps),
    }),
    PATCH: operation({
      summary: 'Retitles content types (type name → title)',
      paths: [CMS_TYPES_PANEL],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      body: typeTitles,
      handle: async (call, deps) => retitleTypes(call, call.body, deps),
    }),
  },
});

/** One type in the types panel: its settings and behaviors. */
export const contentTypePanel = endpoint({
  name: 'controlpanels',
  service: 'config',
  context: 'site-root',
  identifiers: { namedSubPath: true },
  operations: {
    GET: operation({
      summary: 'One content type’s settings and behaviors, as a form',
      paths: [`${CMS_TYPES_PANEL}/:type`],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      params: typeName,
      handle: async (call, deps) => readTypes(call, call.params.type, deps),
    }),
    PATCH: operation({
      summary: 'Changes a content type’s settings, or switches its behaviors on and off',
      paths: [`${CMS_TYPES_PANEL}/:type`],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      params: typeName,
      body: typeSettings,
      handle: async (call, deps) => changeType(call, call.params.type, call.body, deps),
    }),
    DELETE: operation({
      summary: 'Removes a content type that no object has',
      paths: [`${CMS_TYPES_PANEL}/:type`],
      permission: 'cms.ManagePortal',
      guard: requireSchemaManager,
      params: typeName,
      handle: async (call, deps) => removeType(call, call.params.type, deps),
    }),
  },
});
