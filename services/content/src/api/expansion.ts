import { AppError, badRequest, urlOf, type FieldError, type RequestContext } from '@cms/shared';
import { actions } from '../domain/components/actions';
import { aliases } from '../domain/components/aliases';
import { breadcrumbs } from '../domain/components/breadcrumbs';
import {
  contextNavigation,
  DEFAULT_CONTEXT_NAVIGATION,
  type ContextNavigationOptions,
} from '../domain/components/contextnavigation';
import { MAX_NAVIGATION_DEPTH, navigation } from '../domain/components/navigation';
import { navroot } from '../domain/components/navroot';
import { ComponentScope } from '../domain/components/scope';
import { MAX_TREE_LEVELS } from '../domain/components/tree';
import { typeList } from '../domain/components/type-list';
import type { ContentDoc } from '../domain/model';
import type { ContentRepository } from '../domain/repository';
import type { WorkflowCommands } from '../domain/workflow-commands';

/** Components every content response names in `@components`; `?expand=` embeds them. */
export const COMPONENT_NAMES = [
  'actions',
  'aliases',
  'breadcrumbs',
  'contextnavigation',
  'navigation',
  'navroot',
  'types',
  'workflow',
] as const;

export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** Builds the `@components` member of a content response. */
export interface ComponentExpander {
  componentsOf(ctx: RequestContext, doc: ContentDoc): Promise<Record<string, unknown>>;
}

/**
 * The full serialization of an object as `GET` on it answers, for `navroot`. It need not carry `@components`
 * or `items` (the embedded root has neither; they are dropped if present).
 */
export type RenderContent = (ctx: RequestContext, doc: ContentDoc) => Promise<Record<string, unknown>>;

export interface ComponentDeps {
  repo: ContentRepository;
  workflow: WorkflowCommands;
  render: RenderContent;
  /** One deadline for all the components of a request together. */
  deadlineMs: number;
}

export interface Components extends ComponentExpander {
  /** One component, expanded: what `<context>/@<name>` answers. */
  expand(name: ComponentName, ctx: RequestContext, doc: ContentDoc): Promise<unknown>;
}

/** `@components` with the components named by `expand` embedded, gathered in parallel under one deadline. */
export function componentExpander(deps: ComponentDeps): Components {
  /** Contexts whose navigation root is being rendered: a renderer asking for components again gets links. */
  const renderingRoot = new WeakSet<RequestContext>();

  /** The expanded body of one component (or a promise of it). */
  function build(name: ComponentName, ctx: RequestContext, scope: ComponentScope): unknown {
    switch (name) {
      case 'actions':
        return actions(scope);
      case 'aliases':
        return aliases(scope);
      case 'breadcrumbs':
        return breadcrumbs(scope);
      case 'contextnavigation':
        return contextNavigation(scope, contextNavigationOptions(ctx));
      case 'navigation':
        return navigation(scope, navigationDepth(ctx));
      case 'navroot':
        return navroot(scope, async (root) => {
          renderingRoot.add(ctx);
          try {
            return await deps.render(ctx, root);
          } finally {
            renderingRoot.delete(ctx);
          }
        });
      case 'types':
        return typeList(scope);
      case 'workflow':
        return deps.workflow.status(scope.doc, ctx.principal, ctx.publicUrl);
    }
  }

  return {
    async componentsOf(ctx, doc) {
      // A write has committed by the time its body is rendered: a bad `expand` must not turn it into an error.
      if (ctx.method !== 'GET' || renderingRoot.has(ctx)) return linksOf(ctx, doc);
      const wanted = expandedNames(ctx);
      const components = linksOf(ctx, doc);
      if (wanted.length === 0) return components;
      const scope = new ComponentScope(deps.repo, doc, ctx.principal, ctx.publicUrl);
      const bodies = await withDeadline(
        Promise.all(wanted.map(async (name) => build(name, ctx, scope))),
        deps.deadlineMs,
      );
      wanted.forEach((name, i) => (components[name] = bodies[i]));
      return components;
    },

    async expand(name, ctx, doc) {
      const scope = new ComponentScope(deps.repo, doc, ctx.principal, ctx.publicUrl);
      return withDeadline(Promise.resolve(build(name, ctx, scope)), deps.deadlineMs);
    },
  };
}

function linksOf(ctx: RequestContext, doc: ContentDoc): Record<string, unknown> {
  const base = urlOf(ctx.publicUrl, doc.path ?? '/');
  return Object.fromEntries(COMPONENT_NAMES.map((name) => [name, { '@id': `${base}/@${name}` }]));
}

function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}

/** `expand=a,b` or repeated `expand:list=a`; an unknown name is 400. */
function expandedNames(ctx: RequestContext): ComponentName[] {
  const names = [...new Set(ctx.query.getList('expand'))];
  const unknown = names.filter((name) => !isComponentName(name));
  if (unknown.length > 0) {
    const errors: FieldError[] = unknown.map((name) => ({
      field: 'expand',
      message:
        name === 'translations'
          ? 'translations are only available when the site is multilingual'
          : `unknown component "${name}"; known: ${COMPONENT_NAMES.join(', ')}`,
    }));
    throw badRequest(`Cannot expand ${unknown.map((n) => `"${n}"`).join(', ')}`, errors);
  }
  return names.filter(isComponentName);
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError('GatewayTimeout', `The expanded components took longer than ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** `expand.navigation.depth`: levels of the navigation tree, 1 (the top level) by default. */
function navigationDepth(ctx: RequestContext): number {
  const field = 'expand.navigation.depth';
  const raw = ctx.query.get(field);
  if (raw === undefined || raw === '') return 1;
  return integerParam(field, raw, 1, MAX_NAVIGATION_DEPTH);
}

/** The portlet settings of `@contextnavigation`, from `expand.contextnavigation.<name>`. */
function contextNavigationOptions(ctx: RequestContext): ContextNavigationOptions {
  const prefix = 'expand.contextnavigation.';
  const value = (name: string) => {
    const raw = ctx.query.get(prefix + name);
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const options = { ...DEFAULT_CONTEXT_NAVIGATION };
  const name = value('name');
  if (name !== undefined) options.name = name;
  const rootPath = value('root_path');
  if (rootPath !== undefined) options.root_path = rootPath;
  for (const flag of ['includeTop', 'currentFolderOnly'] as const) {
    const raw = value(flag);
    if (raw !== undefined) options[flag] = booleanParam(prefix + flag, raw);
  }
  const topLevel = value('topLevel');
  if (topLevel !== undefined) options.topLevel = integerParam(prefix + 'topLevel', topLevel, 0, 100);
  const bottomLevel = value('bottomLevel');
  if (bottomLevel !== undefined)
    options.bottomLevel = integerParam(prefix + 'bottomLevel', bottomLevel, -1, MAX_TREE_LEVELS);
  // no_icons, no_thumbs and thumb_scale change nothing: items carry neither icons nor thumbnails.
  for (const flag of ['no_icons', 'no_thumbs'] as const) {
    const raw = value(flag);
    if (raw !== undefined) booleanParam(prefix + flag, raw);
  }
  return options;
}

function integerParam(field: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max) {
    const message = `expected a whole number from ${min} to ${max}`;
    throw badRequest(`Invalid ${field}: ${message}`, [{ field, message }]);
  }
  return n;
}

/** The boolean spellings of query strings (the reference takes `True`/`true`/`on`). */
function booleanParam(field: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(value)) return true;
  if (['false', 'off', '0', 'no'].includes(value)) return false;
  const message = 'expected true or false';
  throw badRequest(`Invalid ${field}: ${message}`, [{ field, message }]);
}
