import {
  AppError,
  badRequest,
  clip,
  param,
  queryInput,
  unlessEmpty,
  urlOf,
  validationError,
  type FieldError,
  type HttpMethod,
  type Principal__Output,
  type QueryParams,
  type Translator,
} from '@cms/shared';
import { z } from 'zod';
import { actions } from '../domain/components/actions';
import { aliases } from '../domain/components/aliases';
import { breadcrumbs } from '../domain/components/breadcrumbs';
import { inherit } from '../domain/components/inherit';
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
import type { ContentDoc } from '../domain/content';
import type { ContentRepository } from '../domain/content';
import type { SiteSettingsSource } from '../domain/site';
import { SITE_ROOT_TYPE, type TypeRegistry } from '../domain/types';
import type { WorkflowCommands } from '../domain/workflow';

/** Components every content response names in `@components`; `?expand=` embeds them. */
export const COMPONENT_NAMES = [
  'actions',
  'aliases',
  'breadcrumbs',
  'contextnavigation',
  // Named only when `expand.inherit.behaviors` names behaviors (the original lists it then only).
  'inherit',
  'navigation',
  'navroot',
  // Named only on multilingual sites.
  'translations',
  'types',
  'workflow',
] as const;

export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** What expansion reads of a request (an EndpointCall). */
export interface ExpansionRequest {
  readonly method: HttpMethod;
  readonly principal: Principal__Output | null;
  readonly publicUrl: string;
  readonly queryParams: QueryParams;
  readonly translator: Translator;
  readonly requestId: string;
}

/** Builds the `@components` member of a content response. */
export interface ComponentExpander {
  componentsOf(ctx: ExpansionRequest, doc: ContentDoc): Promise<Record<string, unknown>>;
}

/**
 * The full serialization of an object as `GET` on it answers, for `navroot`. It need not carry `@components`
 * or `items` (the embedded root has neither; they are dropped if present).
 */
export type RenderContent = (ctx: ExpansionRequest, doc: ContentDoc) => Promise<Record<string, unknown>>;

export interface ComponentDeps {
  repo: ContentRepository;
  types: TypeRegistry;
  workflow: WorkflowCommands;
  render: RenderContent;
  /** The types the navigation lists (the navigation panel's `displayed_types`). */
  settings: SiteSettingsSource;
  /** One deadline for all the components of a request together. */
  deadlineMs: number;
  /** The `translations` component (multilingual sites only); absent: the site is never multilingual. */
  translations?: TranslationsComponent;
}

/** What the `translations` component needs of the translations (domain/translations/translations.ts). */
export interface TranslationsComponent {
  multilingual(): Promise<boolean>;
  links(doc: ContentDoc, principal: Principal__Output | null, publicUrl: string): Promise<unknown>;
}

export interface Components extends ComponentExpander {
  /** One component, expanded: what `<context>/@<name>` answers. */
  expand(name: ComponentName, ctx: ExpansionRequest, doc: ContentDoc): Promise<unknown>;
}

/** `@components` with the components named by `expand` embedded, gathered in parallel under one deadline. */
export function componentExpander(deps: ComponentDeps): Components {
  /** Contexts whose navigation root is being rendered: a renderer asking for components again gets links. */
  const renderingRoot = new WeakSet<ExpansionRequest>();

  /** The expanded body of one component (or a promise of it). */
  function build(name: ComponentName, ctx: ExpansionRequest, scope: ComponentScope): unknown {
    switch (name) {
      case 'actions':
        return actions(scope).then((all) => onlyCategories(all, ctx.queryParams.getList('categories')));
      case 'aliases':
        return aliases(scope);
      case 'breadcrumbs':
        return breadcrumbs(scope);
      case 'contextnavigation':
        return contextNavigation(scope, contextNavigationOptions(ctx));
      case 'inherit':
        return inherit(scope, inheritedBehaviors(ctx), (doc) => deps.render(ctx, doc));
      case 'navigation':
        return deps.settings
          .current(ctx.requestId)
          .then((settings) => navigation(scope, navigationDepth(ctx), settings.displayedTypes));
      case 'navroot':
        return navroot(scope, async (root) => {
          renderingRoot.add(ctx);
          try {
            return await deps.render(ctx, root);
          } finally {
            renderingRoot.delete(ctx);
          }
        });
      case 'translations':
        return deps.translations?.links(scope.doc, ctx.principal, ctx.publicUrl);
      case 'types':
        return typeList(scope);
      case 'workflow':
        return deps.workflow.status(scope.doc, ctx.principal, ctx.publicUrl, scope.translate);
    }
  }

  return {
    async componentsOf(ctx, doc) {
      // A write has committed by the time its body is rendered: a bad `expand` must not turn it into an error.
      const siteMultilingual = (await deps.translations?.multilingual()) ?? false;
      // The site root has no translations (its languages are its language root folders), as in the original.
      const multilingual = siteMultilingual && doc.portal_type !== SITE_ROOT_TYPE;
      if (ctx.method !== 'GET' || renderingRoot.has(ctx)) return linksOf(ctx, doc, multilingual);
      // Asking the root of a multilingual site for them is no error: the original leaves them out, and Volto asks
      // every page it shows for them, the root's too.
      const wanted = expandedNames(ctx, siteMultilingual).filter((name) => multilingual || name !== 'translations');
      const components = linksOf(ctx, doc, multilingual);
      if (wanted.length === 0) return components;
      const scope = new ComponentScope(
        deps.repo,
        deps.types,
        doc,
        ctx.principal,
        ctx.publicUrl,
        ctx.translator.translate,
      );
      const bodies = await withDeadline(
        Promise.all(wanted.map(async (name) => build(name, ctx, scope))),
        deps.deadlineMs,
      );
      wanted.forEach((name, i) => (components[name] = bodies[i]));
      return components;
    },

    async expand(name, ctx, doc) {
      const scope = new ComponentScope(
        deps.repo,
        deps.types,
        doc,
        ctx.principal,
        ctx.publicUrl,
        ctx.translator.translate,
      );
      return withDeadline(Promise.resolve(build(name, ctx, scope)), deps.deadlineMs);
    },
  };
}

function linksOf(ctx: ExpansionRequest, doc: ContentDoc, multilingual: boolean): Record<string, unknown> {
  const base = urlOf(ctx.publicUrl, doc.path ?? '/');
  // A link only: bad behavior names must not fail a response (a write's, whose change has committed).
  const parsed = inheritQuery.safeParse(queryInput(ctx.queryParams));
  const behaviors = parsed.success ? (parsed.data['expand.inherit.behaviors'] ?? []) : [];
  const names = COMPONENT_NAMES.filter(
    (name) => (multilingual || name !== 'translations') && (behaviors.length > 0 || name !== 'inherit'),
  );
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        '@id':
          name === 'inherit'
            ? `${base}/@inherit?expand.inherit.behaviors=${behaviors.map(encodeURIComponent).join(',')}`
            : `${base}/@${name}`,
      },
    ]),
  );
}

function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}

/** `expand=a,b` or repeated `expand:list=a`; an unknown name is 400 (naming a few, each clipped). */
function expandedNames(ctx: ExpansionRequest, multilingual: boolean): ComponentName[] {
  const names = [...new Set(ctx.queryParams.getList('expand'))];
  const unknown = names.filter((name) => !isComponentName(name) || (name === 'translations' && !multilingual));
  if (unknown.length > 0) {
    const errors: FieldError[] = unknown.slice(0, 10).map((name) => ({
      field: 'expand',
      message:
        name === 'translations'
          ? 'translations are only available on the content of a multilingual site'
          : `unknown component "${clip(name, 50)}"; known: ${COMPONENT_NAMES.join(', ')}`,
    }));
    const named = unknown.slice(0, 10).map((n) => `"${clip(n, 50)}"`);
    const more = unknown.length > named.length ? ` and ${unknown.length - named.length} more` : '';
    throw badRequest(`Cannot expand ${named.join(', ')}${more}`, errors);
  }
  // `inherit` without behaviors named is nothing to expand (the original leaves it out).
  return names.filter(isComponentName).filter((name) => name !== 'inherit' || inheritedBehaviors(ctx).length > 0);
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

/** The options of the components, as `expand.<component>.<option>` parameters. */
const optionsQuery = z.object({
  // Levels of the navigation tree, 1 (the top level) by default.
  'expand.navigation.depth': unlessEmpty(param.int({ min: 1, max: MAX_NAVIGATION_DEPTH })),
  // The settings of the reference's navigation portlet.
  'expand.contextnavigation.name': unlessEmpty(param.string()),
  'expand.contextnavigation.root_path': unlessEmpty(param.string()),
  'expand.contextnavigation.includeTop': unlessEmpty(param.boolean()),
  'expand.contextnavigation.currentFolderOnly': unlessEmpty(param.boolean()),
  'expand.contextnavigation.topLevel': unlessEmpty(param.int({ min: 0, max: 100 })),
  'expand.contextnavigation.bottomLevel': unlessEmpty(param.int({ min: -1, max: MAX_TREE_LEVELS })),
  // Accepted, and change nothing: items carry neither icons nor thumbnails.
  'expand.contextnavigation.no_icons': unlessEmpty(param.boolean()),
  'expand.contextnavigation.no_thumbs': unlessEmpty(param.boolean()),
  'expand.contextnavigation.thumb_scale': unlessEmpty(param.string()),
});

type ComponentOptions = z.infer<typeof optionsQuery>;

/** Most behaviors one request may name, and the longest name: a behavior name is a short dotted identifier. */
const MAX_INHERITED_BEHAVIORS = 20;
const MAX_BEHAVIOR_NAME = 100;

/** `expand.inherit.behaviors=a,b` (or repeated): the behaviors whose inherited values `inherit` shows. */
const inheritQuery = z.object({
  'expand.inherit.behaviors': unlessEmpty(
    param
      .list()
      .pipe(
        z
          .array(z.string().max(MAX_BEHAVIOR_NAME, `a behavior name is at most ${MAX_BEHAVIOR_NAME} characters`))
          .max(MAX_INHERITED_BEHAVIORS, `at most ${MAX_INHERITED_BEHAVIORS} behaviors`),
      )
      .transform((names) => [...new Set(names)]),
  ),
});

function inheritedBehaviors(ctx: ExpansionRequest): string[] {
  const result = inheritQuery.safeParse(queryInput(ctx.queryParams));
  if (!result.success) throw validationError(result.error, 'query');
  return result.data['expand.inherit.behaviors'] ?? [];
}

function optionsOf(ctx: ExpansionRequest): ComponentOptions {
  const result = optionsQuery.safeParse(queryInput(ctx.queryParams));
  if (!result.success) throw validationError(result.error, 'query');
  return result.data;
}

/** `@actions?categories=...`: only the categories asked for (all without the parameter; unknown ones are absent). */
function onlyCategories<T>(all: Record<string, T>, categories: string[]): Record<string, T> {
  if (categories.length === 0) return all;
  return Object.fromEntries(Object.entries(all).filter(([category]) => categories.includes(category)));
}

function navigationDepth(ctx: ExpansionRequest): number {
  return optionsOf(ctx)['expand.navigation.depth'] ?? 1;
}

function contextNavigationOptions(ctx: ExpansionRequest): ContextNavigationOptions {
  const given = optionsOf(ctx);
  const options = { ...DEFAULT_CONTEXT_NAVIGATION };
  const name = given['expand.contextnavigation.name'];
  if (name !== undefined) options.name = name;
  const rootPath = given['expand.contextnavigation.root_path'];
  if (rootPath !== undefined) options.root_path = rootPath;
  const includeTop = given['expand.contextnavigation.includeTop'];
  if (includeTop !== undefined) options.includeTop = includeTop;
  const currentFolderOnly = given['expand.contextnavigation.currentFolderOnly'];
  if (currentFolderOnly !== undefined) options.currentFolderOnly = currentFolderOnly;
  const topLevel = given['expand.contextnavigation.topLevel'];
  if (topLevel !== undefined) options.topLevel = topLevel;
  const bottomLevel = given['expand.contextnavigation.bottomLevel'];
  if (bottomLevel !== undefined) options.bottomLevel = bottomLevel;
  return options;
}
