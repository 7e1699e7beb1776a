import {
  callerTokens,
  rolesHere,
  rolesWith,
  UNTRANSLATED,
  urlOf,
  type Permission,
  type Principal__Output,
  type Translate,
} from '@cms/shared';
import { governingState } from '../content/access';
import type { ContentDoc, NavDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import { LANGUAGE_ROOT_TYPE } from '../translations/translations';
import { SITE_ROOT_TYPE, type TypeRegistry } from '../types';

/**
 * What the components of one request share: the context, the caller, and the look-ups several components
 * need (the ancestors, the top level), each made at most once per request.
 */
export class ComponentScope {
  readonly tokens: string[];
  private ancestorDocs?: Promise<ContentDoc[]>;
  private rootDoc?: Promise<ContentDoc>;
  private topLevel?: Promise<NavDoc[]>;
  private readonly roles = new Map<string, Set<string>>();

  constructor(
    readonly repo: ContentRepository,
    readonly types: TypeRegistry,
    readonly doc: ContentDoc,
    readonly principal: Principal__Output | null,
    readonly publicUrl: string,
    /** The platform's own words (type and action titles) in the caller's language. */
    readonly translate: Translate = UNTRANSLATED.translate,
  ) {
    this.tokens = callerTokens(principal);
  }

  url(doc: { path?: string }): string {
    return urlOf(this.publicUrl, doc.path ?? '/');
  }

  /** Whether the caller may see an object in a listing (the same test the listing queries make). */
  canSee(doc: Pick<ContentDoc, 'allowed'>): boolean {
    return (doc.allowed ?? []).some((token) => this.tokens.includes(token));
  }

  /** Whether the caller has `permission` on `doc` (its governing workflow state and local roles), as `hasPermission` decides. */
  may(permission: Permission, doc: ContentDoc = this.doc): boolean {
    let roles = this.roles.get(doc._id);
    if (!roles) {
      // Several permissions are checked on the same object: work out the caller's roles there once.
      roles = rolesHere(this.principal, doc.effective_local_roles ?? []);
      this.roles.set(doc._id, roles);
    }
    return rolesWith(permission, governingState(doc)).some((role) => roles.has(role));
  }

  isFolderish(doc: Pick<ContentDoc, 'portal_type'>): boolean {
    // A type removed from the site is shown as a plain item rather than failing the whole listing.
    return this.types.find(doc.portal_type)?.folderish ?? false;
  }

  /** The objects above the context, the site root first, whether the caller may see them or not. */
  ancestors(): Promise<ContentDoc[]> {
    this.ancestorDocs ??= this.loadAncestors();
    return this.ancestorDocs;
  }

  /** The ancestors and the context itself. */
  async chain(): Promise<ContentDoc[]> {
    return [...(await this.ancestors()), this.doc];
  }

  async parent(): Promise<ContentDoc | null> {
    const ancestors = await this.ancestors();
    return ancestors.length ? ancestors[ancestors.length - 1] : null;
  }

  /** The navigation root: the language root folder the context is in (multilingual sites), else the site root. */
  root(): Promise<ContentDoc> {
    this.rootDoc ??= this.loadRoot();
    return this.rootDoc;
  }

  /** The children of the navigation root the caller may see, in folder order. */
  rootChildren(): Promise<NavDoc[]> {
    this.topLevel ??= this.root().then((root) => this.repo.visibleChildrenOf([root._id], this.tokens));
    return this.topLevel;
  }

  private async loadAncestors(): Promise<ContentDoc[]> {
    if (this.doc.ancestors.length === 0) return [];
    const found = new Map((await this.repo.byUids(this.doc.ancestors)).map((d) => [d._id, d]));
    // An ancestor removed meanwhile is left out rather than failing the request.
    return this.doc.ancestors.flatMap((uid) => found.get(uid) ?? []);
  }

  private async loadRoot(): Promise<ContentDoc> {
    if (this.doc.portal_type === SITE_ROOT_TYPE) return this.doc;
    // A language root folder is the navigation root of everything inside it (multilingual sites).
    if (this.doc.portal_type === LANGUAGE_ROOT_TYPE) return this.doc;
    const [first, top] = await this.ancestors();
    if (top?.portal_type === LANGUAGE_ROOT_TYPE) return top;
    if (first?.portal_type === SITE_ROOT_TYPE) return first;
    const root = await this.repo.byPath('/');
    if (!root) throw new Error('the site root is missing');
    return root;
  }
}
