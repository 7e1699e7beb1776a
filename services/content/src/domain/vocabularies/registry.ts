/**
 * The vocabularies of `@vocabularies`, by name: where each one's terms come from (the type registry, the
 * workflow and permission model, identity, the catalog, fixed lists) and who may read them. Context-dependent
 * ones (the types allowed here) are computed for the request's context.
 */
import {
  clip,
  covers,
  hasPermission,
  notFound,
  requirePermission,
  ROLES,
  SIMPLE_PUBLICATION_WORKFLOW,
  SITE_PERMISSIONS,
  callerTokens,
  UNTRANSLATED,
  type Granted,
  type Permission,
  type Principal__Output,
  type Translate,
} from '@cms/shared';
import { accessOf } from '../content/access';
import type { ContentDoc } from '../content/model';
import { BEHAVIORS, LANGUAGES, SITE_ROOT_TYPE, type ContentType, type TypeRegistry } from '../types';
import * as fixed from './static';
import { byTitle, type Term } from './terms';

/** What the catalog (the search service) answers for vocabularies. */
export interface CatalogTerms {
  terms(request: {
    vocabulary: 'keywords' | 'content' | 'metadata';
    text: string;
    viewerTokens: string[];
    portalTypes?: string[];
    limit?: number;
    requestId: string;
  }): Promise<Term[]>;
}

/** Users and groups (the identity service). */
export interface PrincipalTerms {
  search(text: string, limit: number, requestId: string): Promise<{ id: string; title: string; type: string }[]>;
}

/** The request a vocabulary's terms are computed for. */
export interface VocabularyRequest {
  doc: ContentDoc;
  principal: Principal__Output | null;
  requestId: string;
  /** The caller's title filter, for vocabularies whose owner can narrow its answer with it. */
  text?: string;
  /** The platform's words (type, workflow state and transition titles) in the caller's language. */
  translate?: Translate;
  /** The dispatcher's proofs on `doc` (`@vocabularies` declares each vocabulary's permission): not checked again. */
  granted?: readonly Granted[];
}

interface VocabularyDef {
  /** Needed on the context beyond View (which every endpoint checks). */
  permission?: Permission;
  terms(request: VocabularyRequest): Term[] | Promise<Term[]>;
}

const APP = 'cms.app.vocabularies.';
/** Most principals a vocabulary lists (identity caps its searches too). */
const MAX_PRINCIPALS = 1000;
/** The comment type, which the reference lists among the user-friendly types though it is not added as content. */
const COMMENT_TYPE: Term = { token: 'Discussion Item', title: 'Comment' };

export class Vocabularies {
  private readonly defs: ReadonlyMap<string, VocabularyDef>;

  constructor(
    private readonly types: TypeRegistry,
    private readonly catalog: CatalogTerms,
    private readonly principals: PrincipalTerms,
  ) {
    this.defs = new Map(this.definitions());
  }

  /** Every vocabulary name, in the specification's order. */
  names(): string[] {
    return [...this.defs.keys()];
  }

  /** The canonical name of a vocabulary (the reference's `plone.` names are aliases, addendum §8), or undefined. */
  resolve(name: string): string | undefined {
    const neutral = name.startsWith('plone.') ? `cms.${name.slice('plone.'.length)}` : name;
    return this.defs.has(neutral) ? neutral : undefined;
  }

  /** What reading a vocabulary needs on the context: its own permission, else View (an unknown one is 404 later). */
  permissionFor(name: string): Permission {
    const canonical = this.resolve(name);
    return (canonical === undefined ? undefined : this.defs.get(canonical)?.permission) ?? 'View';
  }

  /**
   * The terms of a vocabulary for this request: 404 for an unknown name, 401/403 for a caller who may not read
   * it, unless the dispatcher proved its permission on the context (`@vocabularies`; a field's source is not).
   */
  async terms(name: string, request: VocabularyRequest): Promise<Term[]> {
    const canonical = this.resolve(name);
    const def = canonical === undefined ? undefined : this.defs.get(canonical);
    if (!def) throw notFound(`No vocabulary ${clip(name)}`);
    const { permission } = def;
    if (permission && !covers(request.granted, permission, request.doc.path ?? '/')) {
      requirePermission(request.principal, permission, accessOf(request.doc));
    }
    return def.terms(request);
  }

  /** The types as terms, by title in the caller's language. */
  private typeTerms(request: VocabularyRequest, types: readonly ContentType[], extra: Term[] = []): Term[] {
    const translate = request.translate ?? UNTRANSLATED.translate;
    const terms = [...types.map((type) => ({ token: type.name, title: type.title })), ...extra];
    return byTitle(terms.map((term) => ({ token: term.token, title: term.title && translate(term.title) })));
  }

  private addable(): ContentType[] {
    return this.types.list().filter((type) => type.addable);
  }

  private async principalTerms(request: VocabularyRequest, kind: 'user' | 'group' | 'any'): Promise<Term[]> {
    const found = await this.principals.search(request.text ?? '', MAX_PRINCIPALS, request.requestId);
    const wanted = kind === 'any' ? found : found.filter((p) => p.type === kind);
    // Principals mixes users and groups: its tokens say which (`user:<id>`, `group:<id>`).
    const token = (p: { id: string; type: string }) => (kind === 'any' ? `${p.type}:${p.id}` : p.id);
    return byTitle(wanted.map((p) => ({ token: token(p), title: p.title })));
  }

  /** Content the caller may see, by title; with `text`, content whose words start with those of the text. */
  content(request: VocabularyRequest, portalTypes?: string[], text = ''): Promise<Term[]> {
    return this.catalog.terms({
      vocabulary: 'content',
      text,
      viewerTokens: callerTokens(request.principal),
      portalTypes,
      requestId: request.requestId,
    });
  }

  private definitions(): [string, VocabularyDef][] {
    const languages = (): Term[] => LANGUAGES.map(([token, title]) => ({ token, title }));
    const workflow = SIMPLE_PUBLICATION_WORKFLOW;
    const catalog: VocabularyDef = { terms: (r) => this.content(r) };
    const metadata: VocabularyDef = {
      terms: (r) => this.catalog.terms({ vocabulary: 'metadata', text: '', viewerTokens: [], requestId: r.requestId }),
    };
    const fixedTerms = (terms: Term[]): VocabularyDef => ({ terms: () => terms });
    return [
      ['cms.contentrules.events', fixedTerms(fixed.CONTENT_RULE_EVENTS)],
      ['Behaviors', { terms: () => byTitle(Object.values(BEHAVIORS).map((b) => ({ token: b.name, title: b.title }))) }],
      [`${APP}AvailableContentLanguages`, { terms: languages }],
      [`${APP}SupportedContentLanguages`, { terms: languages }],
      [`${APP}Roles`, { terms: () => ROLES.map((role) => ({ token: role, title: role })) }],
      [
        `${APP}Permissions`,
        {
          permission: 'cms.ManagePortal',
          terms: () => Object.keys(SITE_PERMISSIONS).map((p) => ({ token: p, title: p })),
        },
      ],
      [
        `${APP}AllowedContentTypes`,
        {
          // The types the caller may add here.
          terms: (r) => {
            const here = this.types.find(r.doc.portal_type);
            const mayAdd = here !== undefined && hasAdd(r);
            return this.typeTerms(r, mayAdd ? this.types.allowedIn(here) : []);
          },
        },
      ],
      [`${APP}AllowableContentTypes`, { terms: (r) => this.typeTerms(r, this.addable()) }],
      [`${APP}PortalTypes`, { terms: (r) => this.typeTerms(r, this.types.list(), [COMMENT_TYPE]) }],
      [`${APP}ReallyUserFriendlyTypes`, { terms: (r) => this.typeTerms(r, this.addable(), [COMMENT_TYPE]) }],
      [`${APP}UserFriendlyTypes`, { terms: (r) => this.typeTerms(r, this.addable(), [COMMENT_TYPE]) }],
      [`${APP}Skins`, fixedTerms(fixed.SKINS)],
      [`${APP}Workflows`, fixedTerms([{ token: workflow.id, title: 'Simple Publication Workflow' }])],
      [
        `${APP}WorkflowStates`,
        {
          terms: (r) =>
            Object.values(workflow.states).map((s) => ({
              token: s.id,
              title: `${(r.translate ?? UNTRANSLATED.translate)(s.title)} [${workflow.id}]`,
            })),
        },
      ],
      [
        `${APP}WorkflowTransitions`,
        {
          terms: (r) =>
            workflow.transitions.map((t) => ({
              token: t.id,
              title: `${(r.translate ?? UNTRANSLATED.translate)(t.title)} [${t.id}]`,
            })),
        },
      ],
      [`${APP}AvailableEditors`, fixedTerms(fixed.AVAILABLE_EDITORS)],
      [
        `${APP}Keywords`,
        {
          permission: 'Modify portal content',
          terms: (r) =>
            this.catalog.terms({
              vocabulary: 'keywords',
              text: '',
              viewerTokens: callerTokens(r.principal),
              requestId: r.requestId,
            }),
        },
      ],
      [`${APP}SyndicationFeedTypes`, fixedTerms(fixed.SYNDICATION_FEED_TYPES)],
      [
        `${APP}SyndicatableFeedItems`,
        { permission: 'Modify portal content', terms: (r) => this.content(r, ['Folder', 'Collection']) },
      ],
      [`${APP}Users`, { permission: 'Modify portal content', terms: (r) => this.principalTerms(r, 'user') }],
      [`${APP}Groups`, { permission: 'Modify portal content', terms: (r) => this.principalTerms(r, 'group') }],
      [`${APP}Principals`, { permission: 'Modify portal content', terms: (r) => this.principalTerms(r, 'any') }],
      [`${APP}Actions`, fixedTerms(fixed.ACTIONS)],
      [`${APP}PortalActionCategories`, fixedTerms(fixed.ACTION_CATEGORIES)],
      [`${APP}Timezones`, fixedTerms(fixed.TIMEZONES)],
      [`${APP}CommonTimezones`, fixedTerms(fixed.TIMEZONES)],
      [`${APP}AvailableTimezones`, fixedTerms(fixed.TIMEZONES)],
      [`${APP}Weekdays`, fixedTerms(fixed.WEEKDAYS)],
      [`${APP}WeekdaysAbbr`, fixedTerms(fixed.WEEKDAYS_ABBR)],
      [`${APP}WeekdaysShort`, fixedTerms(fixed.WEEKDAYS_SHORT)],
      [`${APP}Month`, fixedTerms(fixed.MONTHS)],
      [`${APP}MonthAbbr`, fixedTerms(fixed.MONTHS_ABBR)],
      [`${APP}ImagesScales`, fixedTerms(fixed.IMAGE_SCALES)],
      [`${APP}MetadataFields`, metadata],
      [
        'cms.app.content.ValidAddableTypes',
        {
          terms: (r) =>
            this.typeTerms(
              r,
              this.addable().filter((t) => t.name !== SITE_ROOT_TYPE),
            ),
        },
      ],
      ['Fields', fixedTerms(fixed.FIELD_KINDS)],
      [
        'cms.schemaeditor.VocabulariesVocabulary',
        { terms: () => this.names().map((name) => ({ token: name, title: name })) },
      ],
      ['cms.formwidget.relations.cmfcontentsearch', catalog],
      ['cms.app.event.SynchronizationStrategies', fixedTerms(fixed.SYNCHRONIZATION_STRATEGIES)],
      [`${APP}Catalog`, catalog],
      ['cms.app.contenttypes.metadatafields', metadata],
      ['cms.app.contenttypes.migration.changed_base_classes', fixedTerms([])],
      ['Interfaces', fixedTerms(fixed.INTERFACES)],
      ['cms.app.users.user_registration_fields', fixedTerms(fixed.USER_REGISTRATION_FIELDS)],
      ['cms.app.users.group_ids', { permission: 'Manage users', terms: (r) => this.principalTerms(r, 'group') }],
      ['cms.app.discussion.vocabularies.CaptchaVocabulary', fixedTerms(fixed.CAPTCHAS)],
      ['cms.app.discussion.vocabularies.TextTransformVocabulary', fixedTerms(fixed.TEXT_TRANSFORMS)],
      ['cms.app.multilingual.vocabularies.AllContentLanguageVocabulary', { terms: languages }],
      ['cms.app.multilingual.vocabularies.AllAvailableLanguageVocabulary', { terms: languages }],
      ['cms.app.multilingual.RootCatalog', catalog],
    ];
  }
}

function hasAdd(request: VocabularyRequest): boolean {
  return hasPermission(request.principal, 'Add portal content', accessOf(request.doc));
}
