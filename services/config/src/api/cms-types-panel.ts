/**
 * `@controlpanels/cms-types`: the content types (list, create) and one type's settings and behaviors (read,
 * change, remove). Guarded by `cms.schemaeditor.ManageSchemata` besides the panels' own permission.
 */
import { badRequest, clip, notFound, requirePermission, type EndpointCall, type HttpResult } from '@cms/shared';
import {
  changedType,
  CMS_TYPES_PANEL,
  cmsTypesUrl,
  newTypeBody,
  typeEntry,
  typePanel,
  typesListForm,
  typeTitles,
} from '../domain/cms-types-panel';
import { parsed } from '../domain/schema-edits';
import type { ConfigDeps } from './declarations';

type PanelCall = Pick<EndpointCall, 'principal' | 'publicUrl' | 'requestId'>;

/**
 * Whether the panel's sub-path addresses this panel (`cms-types`, or its alias), and then which type (none: the
 * list); 404 for a path below a type.
 */
export function typesPanelPath(params: { id?: string; rule?: string; kind?: string }): { type?: string } | undefined {
  if (params.id !== CMS_TYPES_PANEL && params.id !== 'dexterity-types') return undefined;
  if (params.kind !== undefined) throw notFound('A content type has no sub-paths here');
  return { type: params.rule };
}

/** The panel's own permission (the panels' endpoint checks cms.ManagePortal). Types belong to the site root. */
export function requireSchemaManager(call: PanelCall): void {
  requirePermission(call.principal, 'cms.schemaeditor.ManageSchemata', { state: null, localRoles: [] });
}

export async function readTypes(call: PanelCall, typeName: string | undefined, deps: ConfigDeps): Promise<HttpResult> {
  requireSchemaManager(call);
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

export async function createType(call: PanelCall, body: unknown, deps: ConfigDeps): Promise<HttpResult> {
  requireSchemaManager(call);
  const input = parsed(newTypeBody, body, 'content type');
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
  body: unknown,
  deps: ConfigDeps,
): Promise<HttpResult> {
  requireSchemaManager(call);
  const known = new Set((await deps.contentTypes.list()).map((t) => t.name));
  await deps.contentTypes.update(typeName, (def) => changedType(def, body, known));
  return { status: 204 };
}

export async function removeType(call: PanelCall, typeName: string, deps: ConfigDeps): Promise<HttpResult> {
  requireSchemaManager(call);
  await deps.contentTypes.remove(typeName, deps.countByType, call.requestId);
  return { status: 204 };
}

/** The list's form written back: each type named gets that title; all are checked before any changes. */
export async function retitleTypes(call: PanelCall, body: unknown, deps: ConfigDeps): Promise<HttpResult> {
  requireSchemaManager(call);
  const titles = parsed(typeTitles, body, 'content type titles');
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
