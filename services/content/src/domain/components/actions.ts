import { hasPermission } from '@cms/shared';
import { SITE_ROOT_TYPE } from '../types';
import type { ComponentScope } from './scope';

export interface Action {
  icon: string;
  id: string;
  title: string;
  url: string;
}

/** A possible action: shown when `when` holds for the caller here. */
interface ActionRule {
  id: string;
  title: string;
  icon: string;
  url: (urls: Urls) => string;
  when: (facts: Facts) => boolean;
}

interface Urls {
  /** The context. */
  object: string;
  /** The folder the context is, or is in. */
  folder: string;
  site: string;
}

/** What the caller may do here, worked out once for all the rules. */
interface Facts {
  loggedIn: boolean;
  isRoot: boolean;
  modify: boolean;
  remove: boolean;
  review: boolean;
  share: boolean;
  /** May change what the current folder holds (the Contents view). */
  manageFolder: boolean;
  managePortal: boolean;
}

/**
 * The default action lists of the reference platform (neutral names), each action kept only where the caller
 * may take it. `paste` is left out: it only shows with something on the browser session's clipboard, which
 * this API has no notion of.
 */
const OBJECT: ActionRule[] = [
  { id: 'view', title: 'View', icon: 'toolbar-action/view', url: (u) => u.object, when: () => true },
  { id: 'edit', title: 'Edit', icon: 'toolbar-action/edit', url: (u) => `${u.object}/edit`, when: (f) => f.modify },
  {
    id: 'folderContents',
    title: 'Contents',
    icon: 'toolbar-action/folderContents',
    url: (u) => `${u.folder}/folder_contents`,
    when: (f) => f.manageFolder,
  },
  {
    id: 'history',
    title: 'History',
    icon: 'toolbar-action/history',
    url: (u) => `${u.object}/@@historyview`,
    when: (f) => f.modify || f.review,
  },
  {
    id: 'local_roles',
    title: 'Sharing',
    icon: 'toolbar-action/sharing',
    url: (u) => `${u.object}/@@sharing`,
    when: (f) => f.share,
  },
];

const OBJECT_BUTTONS: ActionRule[] = [
  {
    id: 'cut',
    title: 'Cut',
    icon: 'cms-cut',
    url: (u) => `${u.object}/object_cut`,
    when: (f) => f.remove && !f.isRoot,
  },
  {
    id: 'copy',
    title: 'Copy',
    icon: 'cms-copy',
    url: (u) => `${u.object}/object_copy`,
    when: (f) => f.loggedIn && !f.isRoot,
  },
  {
    id: 'delete',
    title: 'Delete',
    icon: 'cms-delete',
    url: (u) => `${u.object}/delete_confirmation`,
    when: (f) => f.remove && !f.isRoot,
  },
  {
    id: 'rename',
    title: 'Rename',
    icon: 'cms-rename',
    url: (u) => `${u.object}/object_rename`,
    when: (f) => f.remove && !f.isRoot,
  },
  {
    id: 'redirection',
    title: 'URL Management',
    icon: 'cms-redirection',
    url: (u) => `${u.object}/@@manage-aliases`,
    when: (f) => f.modify,
  },
];

const PORTAL_TABS: ActionRule[] = [
  { id: 'index_html', title: 'Home', icon: 'cms-home', url: (u) => u.site, when: () => true },
];

const SITE_ACTIONS: ActionRule[] = [
  { id: 'sitemap', title: 'Site Map', icon: 'cms-sitemap', url: (u) => `${u.site}/sitemap`, when: () => true },
  {
    id: 'accessibility',
    title: 'Accessibility',
    icon: 'cms-accessibility',
    url: (u) => `${u.site}/accessibility-info`,
    when: () => true,
  },
  { id: 'contact', title: 'Contact', icon: 'cms-contact-info', url: (u) => `${u.site}/contact-info`, when: () => true },
];

const USER: ActionRule[] = [
  {
    id: 'preferences',
    title: 'Preferences',
    icon: 'cms-user',
    url: (u) => `${u.site}/@@personal-preferences`,
    when: (f) => f.loggedIn,
  },
  {
    id: 'dashboard',
    title: 'Dashboard',
    icon: 'cms-dashboard',
    url: (u) => `${u.site}/dashboard`,
    when: (f) => f.loggedIn,
  },
  {
    id: 'cms_setup',
    title: 'Site Setup',
    icon: 'cms-controlpanel',
    url: (u) => `${u.site}/@@overview-controlpanel`,
    when: (f) => f.managePortal,
  },
  { id: 'login', title: 'Log in', icon: 'cms-login', url: (u) => `${u.site}/login`, when: (f) => !f.loggedIn },
  { id: 'logout', title: 'Log out', icon: 'cms-logout', url: (u) => `${u.site}/logout`, when: (f) => f.loggedIn },
];

/**
 * `@actions`: the categories of actions a client shows for the context, filtered by what the caller may do.
 * `portal_tabs` holds the site's tab actions (`Home`); the generated tabs of the top-level content are what
 * `@navigation` serves, as in the reference.
 */
export async function actions(scope: ComponentScope): Promise<Record<string, Action[]>> {
  const doc = scope.doc;
  const [parent, root] = await Promise.all([scope.parent(), scope.root()]);
  const folder = scope.isFolderish(doc) ? doc : (parent ?? doc);
  const facts: Facts = {
    loggedIn: scope.principal !== null,
    isRoot: doc.portal_type === SITE_ROOT_TYPE,
    modify: scope.may('Modify portal content'),
    remove: scope.may('Delete objects'),
    review: scope.may('Review portal content'),
    share: scope.may('Change local roles'),
    manageFolder:
      scope.may('Add portal content', folder) ||
      scope.may('Modify portal content', folder) ||
      scope.may('Delete objects', folder),
    managePortal: hasPermission(scope.principal, 'cms.ManagePortal'),
  };
  const urls: Urls = { object: scope.url(doc), folder: scope.url(folder), site: scope.url(root) };
  const pick = (rules: ActionRule[]): Action[] =>
    rules
      .filter((rule) => rule.when(facts))
      .map((rule) => ({ icon: rule.icon, id: rule.id, title: scope.translate(rule.title), url: rule.url(urls) }));
  return {
    document_actions: [],
    object: pick(OBJECT),
    object_buttons: pick(OBJECT_BUTTONS),
    portal_tabs: pick(PORTAL_TABS),
    site_actions: pick(SITE_ACTIONS),
    user: pick(USER),
  };
}
