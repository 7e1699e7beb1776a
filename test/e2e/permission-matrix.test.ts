import type { HttpMethod } from '@cms/shared';
import { ROUTES } from '../../gateway/src/routes.generated';
import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * The permission matrix: every route the gateway knows, for each kind of
 * caller, and for content in each workflow state, the expected status. A route
 * added to the routing table without a row here fails the coverage test.
 *
 * Expectations are written out by role (not computed by the code under test):
 * simple_publication_workflow on a new site and addendum §8 (published content
 * stays editable by its Owner and Editors). The callers: one global role each
 * and no local role, on content the administrator created; the Owner, a
 * Contributor on content they created themselves (elsewhere a Contributor); a
 * Member given one local role through sharing on the folder that holds the
 * content (elsewhere a Member); a Member of a group that holds the Editor role
 * (an Editor everywhere); and a Member of a group given Reviewer on that
 * folder through sharing (as the local Reviewer).
 */

const GLOBAL_CALLERS = [
  'anonymous',
  'Member',
  'Contributor',
  'Editor',
  'Reviewer',
  'Site Administrator',
  'Manager',
] as const;
/** Members with one role granted on /matrix through `@sharing`. */
const LOCAL_CALLERS = ['local Reader', 'local Editor', 'local Contributor', 'local Reviewer'] as const;
const CALLERS = [...GLOBAL_CALLERS, 'Owner', ...LOCAL_CALLERS, 'group Editor', 'group local Reviewer'] as const;
type Caller = (typeof CALLERS)[number];
/** The role each local caller holds on /matrix. */
const LOCAL_ROLE: Record<(typeof LOCAL_CALLERS)[number], string> = {
  'local Reader': 'Reader',
  'local Editor': 'Editor',
  'local Contributor': 'Contributor',
  'local Reviewer': 'Reviewer',
};
const STATES = ['private', 'pending', 'published'] as const;
type State = (typeof STATES)[number];

const ALL: Caller[] = [...CALLERS];
const LOGGED_IN: Caller[] = CALLERS.filter((c) => c !== 'anonymous');
const ADMINS: Caller[] = ['Site Administrator', 'Manager'];

/** Allowed callers get `ok`; anonymous callers 401; the others 403 (or `denied` when a route answers otherwise). */
function allow(ok: number, who: Caller[], denied?: { anonymous?: number; others?: number }) {
  return (caller: Caller) =>
    who.includes(caller) ? ok : caller === 'anonymous' ? (denied?.anonymous ?? 401) : (denied?.others ?? 403);
}

/** Editors: global ones, through their group, and on /matrix only. */
const EDITORS: Caller[] = ['Editor', 'group Editor', 'local Editor'];
/** Reviewers on /matrix only: their own grant, or their group's. */
const LOCAL_REVIEWERS: Caller[] = ['local Reviewer', 'group local Reviewer'];
const VIEW: Record<State, Caller[]> = {
  private: ['Contributor', ...EDITORS, ...ADMINS, 'Owner', 'local Reader', 'local Contributor'],
  pending: [
    'Contributor',
    ...EDITORS,
    'Reviewer',
    ...ADMINS,
    'Owner',
    'local Reader',
    'local Contributor',
    ...LOCAL_REVIEWERS,
  ],
  published: ALL,
};
const MODIFY: Record<State, Caller[]> = {
  private: [...EDITORS, ...ADMINS, 'Owner'],
  pending: ['Reviewer', ...LOCAL_REVIEWERS, ...ADMINS],
  published: [...EDITORS, ...ADMINS, 'Owner'],
};
const DELETE: Caller[] = [...EDITORS, ...ADMINS, 'Owner'];
/** Adding to /matrix; to another folder only the global Contributors (and the Owner, one) add. */
const ADD: Caller[] = ['Contributor', 'local Contributor', ...ADMINS, 'Owner'];
const ADD_ELSEWHERE: Caller[] = ['Contributor', ...ADMINS, 'Owner'];
const REVIEW: Caller[] = ['Reviewer', ...LOCAL_REVIEWERS, ...ADMINS];
const REQUEST_REVIEW: Caller[] = ['Contributor', 'local Contributor', ...EDITORS, ...ADMINS, 'Owner'];
const SHARE: Caller[] = [...EDITORS, ...ADMINS, 'Owner'];
/** Working copies: the check-out and check-in roles, which no workflow state manages (an Editor may check out a published page). */
const ITERATE: Caller[] = [...EDITORS, ...ADMINS, 'Owner'];
const HISTORY: Caller[] = [
  'Contributor',
  ...EDITORS,
  'Reviewer',
  ...ADMINS,
  'Owner',
  ...LOCAL_CALLERS,
  'group local Reviewer',
];

/** Every endpoint first checks that the caller may view its context: those who may not get 401/403 whatever else. */
function whenViewing(state: State, then: (caller: Caller) => number) {
  return (caller: Caller) => (VIEW[state].includes(caller) ? then(caller) : allow(0, [])(caller));
}

interface Row {
  endpoint: string;
  method: HttpMethod;
  name: string;
  /** Rows on content run once per workflow state of a Document (a fresh one when `fresh`). */
  onContent?: boolean;
  fresh?: boolean;
  /** Rows on content that need the document checked out first (by the administrator). */
  checkedOut?: boolean;
  path: (doc: string, caller: Caller) => string;
  body?: unknown;
  /** Request headers besides the credentials (a TUS upload's). */
  headers?: Record<string, string>;
  expected: (caller: Caller, state: State) => number;
}

const MATRIX: Row[] = [
  // The context itself.
  { endpoint: '', method: 'GET', name: 'read the site root', path: () => '/', expected: () => 200 },
  {
    endpoint: '',
    method: 'GET',
    name: 'read a document',
    onContent: true,
    path: (d) => d,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: '',
    method: 'POST',
    name: 'add a document to the folder',
    path: () => '/matrix',
    body: { '@type': 'Document', title: 'Added' },
    expected: (c) => allow(201, ADD)(c),
  },
  {
    endpoint: '',
    method: 'PATCH',
    name: 'edit a document',
    onContent: true,
    fresh: true,
    path: (d) => d,
    body: { title: 'Edited' },
    expected: (c, s) => allow(204, MODIFY[s])(c),
  },
  // A rename is an edit of the id: Modify on the object, nothing on the folder (as a PATCH in the original).
  {
    endpoint: '',
    method: 'PATCH',
    name: 'rename a document',
    onContent: true,
    fresh: true,
    path: (d) => d,
    body: (doc: string) => ({ id: `${doc.split('/').pop()}-renamed` }),
    expected: (c, s) => allow(204, MODIFY[s])(c),
  },
  {
    endpoint: '',
    method: 'DELETE',
    name: 'delete a document',
    onContent: true,
    fresh: true,
    path: (d) => d,
    expected: (c) => allow(204, DELETE)(c),
  },
  // Search: everyone may search; what they find is filtered (see workflow and sharing tests).
  {
    endpoint: 'search',
    method: 'GET',
    name: 'search',
    path: () => '/@search?SearchableText=matrix',
    expected: () => 200,
  },
  // @querystring and @querystring-search (issue 12): View on the context; results are filtered for the caller.
  {
    endpoint: 'querystring',
    method: 'GET',
    name: 'query builder configuration',
    path: () => '/@querystring',
    expected: () => 200,
  },
  {
    endpoint: 'querystring',
    method: 'GET',
    name: 'query builder configuration on a document',
    onContent: true,
    path: (d) => `${d}/@querystring`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'querystring-search',
    method: 'POST',
    name: 'query-builder search',
    path: () => '/@querystring-search',
    body: { query: [{ i: 'getId', o: 'cms.app.querystring.operation.string.is', v: 'matrix' }] },
    expected: () => 200,
  },
  {
    endpoint: 'querystring-search',
    method: 'GET',
    name: 'query-builder search by GET on a document',
    onContent: true,
    path: (d) =>
      `${d}/@querystring-search?query=` +
      encodeURIComponent(
        JSON.stringify({ query: [{ i: 'getId', o: 'cms.app.querystring.operation.string.is', v: 'x' }] }),
      ),
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  // Workflow.
  {
    endpoint: 'workflow',
    method: 'GET',
    name: 'workflow status',
    onContent: true,
    path: (d) => `${d}/@workflow`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'workflow',
    method: 'POST',
    name: 'publish',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@workflow/publish`,
    // Not available from published, whoever may see it asks; a Reviewer cannot take it on what they cannot view.
    expected: (c, s) => whenViewing(s, (v) => (s === 'published' ? 400 : allow(200, REVIEW)(v)))(c),
  },
  {
    endpoint: 'workflow',
    method: 'POST',
    name: 'submit for review',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@workflow/submit`,
    expected: (c, s) => whenViewing(s, (v) => (s === 'private' ? allow(200, REQUEST_REVIEW)(v) : 400))(c),
  },
  // Sharing.
  {
    endpoint: 'sharing',
    method: 'GET',
    name: 'read the sharing form',
    onContent: true,
    path: (d) => `${d}/@sharing`,
    expected: (c) => allow(200, SHARE)(c),
  },
  // To a group none of the callers is in: the sharing permission delegates Reader, Editor and Contributor.
  {
    endpoint: 'sharing',
    method: 'POST',
    name: 'grant a local role',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@sharing`,
    body: { entries: [{ id: 'matrixgroup', roles: { Reader: true } }] },
    expected: (c) => allow(204, SHARE)(c),
  },
  // Reviewer is delegated only by Managers, Site Administrators and Reviewers (who also need the sharing permission).
  {
    endpoint: 'sharing',
    method: 'POST',
    name: 'grant Reviewer locally',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@sharing`,
    body: { entries: [{ id: 'matrixgroup', roles: { Reviewer: true } }] },
    expected: (c) => allow(204, ADMINS)(c),
  },
  // Nobody but Managers and Site Administrators grants roles to themselves or to a group they are in.
  {
    endpoint: 'sharing',
    method: 'POST',
    name: 'grant oneself a local role',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@sharing`,
    body: (_doc: string, caller: Caller) => ({ entries: [{ id: userId(caller), roles: { Reader: true } }] }),
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'sharing',
    method: 'POST',
    name: 'grant the logged-in users a local role',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@sharing`,
    body: { entries: [{ id: 'AuthenticatedUsers', roles: { Reader: true } }] },
    expected: (c) => allow(204, ADMINS)(c),
  },
  // Copy and move into another private folder: copying needs View on the source and Add on the target; moving also
  // Delete on the source.
  {
    endpoint: 'copy',
    method: 'POST',
    name: 'copy a document',
    onContent: true,
    path: () => '/matrix-target/@copy',
    body: (doc: string) => ({ source: doc }),
    expected: (c, s) =>
      allow(
        200,
        ADD_ELSEWHERE.filter((a) => VIEW[s].includes(a)),
      )(c),
  },
  {
    endpoint: 'move',
    method: 'POST',
    name: 'move a document',
    onContent: true,
    fresh: true,
    path: () => '/matrix-target/@move',
    body: (doc: string) => ({ source: doc }),
    // The Owner may delete what they made, and adds anywhere as a Contributor.
    expected: (c) => allow(200, [...ADMINS, 'Owner'])(c),
  },
  // Locks: anyone who may view sees the lock; taking, refreshing and releasing one needs the edit permission.
  {
    endpoint: 'lock',
    method: 'GET',
    name: 'read the lock of a document',
    onContent: true,
    path: (d) => `${d}/@lock`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'lock',
    method: 'POST',
    name: 'lock a document',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@lock`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  {
    endpoint: 'lock',
    method: 'PATCH',
    name: 'refresh the lock of an unlocked document',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@lock`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  {
    endpoint: 'lock',
    method: 'DELETE',
    name: 'unlock a document',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@lock`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  {
    endpoint: 'unlock',
    method: 'POST',
    name: 'unlock a document (deprecated)',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@unlock`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  {
    endpoint: 'refresh-lock',
    method: 'POST',
    name: 'refresh a lock (deprecated)',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@refresh-lock`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  // Translations: reading needs View, linking and unlinking the edit permission; this site is not multilingual,
  // so whoever passes the permission check gets the 400 that says so.
  {
    endpoint: 'translations',
    method: 'GET',
    name: 'read the translations of a document',
    onContent: true,
    path: (d) => `${d}/@translations`,
    expected: (c, s) => allow(400, VIEW[s])(c),
  },
  {
    endpoint: 'translations',
    method: 'POST',
    name: 'link a translation to a document',
    onContent: true,
    path: (d) => `${d}/@translations`,
    body: { id: '/' },
    expected: (c, s) => whenViewing(s, allow(400, MODIFY[s]))(c),
  },
  {
    endpoint: 'translations',
    method: 'DELETE',
    name: 'unlink a translation of a document',
    onContent: true,
    path: (d) => `${d}/@translations`,
    body: { language: 'es' },
    expected: (c, s) => whenViewing(s, allow(400, MODIFY[s]))(c),
  },
  {
    endpoint: 'translation-locator',
    method: 'GET',
    name: 'locate the folder of a new translation',
    onContent: true,
    path: (d) => `${d}/@translation-locator?target_language=es`,
    expected: (c, s) => allow(400, VIEW[s])(c),
  },
  // History: those who work with content (not Members, not the public) see it; reverting is an edit.
  {
    endpoint: 'history',
    method: 'GET',
    name: 'read the history of a document',
    onContent: true,
    path: (d) => `${d}/@history`,
    expected: (c, s) =>
      allow(
        200,
        VIEW[s].filter((v) => HISTORY.includes(v)),
      )(c),
  },
  {
    endpoint: 'history',
    method: 'PATCH',
    name: 'revert a document to its first version',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@history`,
    body: { version: 0 },
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  // Working copies: whoever may view sees whether there is one (told only to those who may work on it); checking
  // out and in needs the iterate roles on the original in any state; cancelling those or deleting the copy.
  {
    endpoint: 'workingcopy',
    method: 'GET',
    name: 'read the working copy of a document',
    onContent: true,
    path: (d) => `${d}/@workingcopy`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'workingcopy',
    method: 'POST',
    name: 'check out a document',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@workingcopy`,
    expected: (c, s) => whenViewing(s, allow(201, ITERATE))(c),
  },
  {
    endpoint: 'workingcopy',
    method: 'PATCH',
    name: 'check in the working copy of a document',
    onContent: true,
    fresh: true,
    checkedOut: true,
    path: (d) => `${d}/@workingcopy`,
    expected: (c, s) => whenViewing(s, allow(204, ITERATE))(c),
  },
  {
    endpoint: 'workingcopy',
    method: 'DELETE',
    name: 'cancel the check-out of a document',
    onContent: true,
    fresh: true,
    checkedOut: true,
    path: (d) => `${d}/@workingcopy`,
    // The iterate roles are also those who may delete the copy.
    expected: (c, s) => whenViewing(s, allow(204, ITERATE))(c),
  },
  // File bytes: View is checked before the field is looked up, so viewers learn only that a Document has no file
  // (404); files.test.ts covers the bytes themselves.
  {
    endpoint: 'download',
    method: 'GET',
    name: 'download a field of a document',
    onContent: true,
    path: (d) => `${d}/@@download/file`,
    expected: (c, s) => allow(404, VIEW[s])(c),
  },
  {
    endpoint: 'images',
    method: 'GET',
    name: 'view an image field of a document',
    onContent: true,
    path: (d) => `${d}/@@images/image`,
    expected: (c, s) => allow(404, VIEW[s])(c),
  },
  // Expansion components on their own: whoever may view the context (what they list is filtered further).
  {
    endpoint: 'actions',
    method: 'GET',
    name: 'list the actions of a document',
    onContent: true,
    path: (d) => `${d}/@actions`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'aliases',
    method: 'GET',
    name: 'list the aliases of a document',
    onContent: true,
    path: (d) => `${d}/@aliases`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'aliases',
    method: 'POST',
    name: 'add an alias to a document',
    onContent: true,
    fresh: true,
    path: (d) => `${d}/@aliases`,
    body: (doc: string) => ({ items: [{ path: `${doc}-alias` }] }),
    expected: (c, s) => allow(204, MODIFY[s])(c),
  },
  {
    endpoint: 'aliases',
    method: 'DELETE',
    name: 'remove an alias that a document does not have',
    onContent: true,
    path: (d) => `${d}/@aliases`,
    body: { items: [{ path: '/no-such-alias' }] },
    expected: (c, s) => allow(400, MODIFY[s])(c),
  },
  {
    endpoint: 'aliases',
    method: 'GET',
    name: 'list every alias of the site',
    path: () => '/@aliases',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'upgrade',
    method: 'GET',
    name: 'list the pending data migrations',
    path: () => '/@upgrade',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'upgrade',
    method: 'POST',
    name: 'run the data migrations (dry run)',
    path: () => '/@upgrade',
    body: { dry_run: true },
    expected: (c) => allow(200, ADMINS)(c),
  },
  // The Undo panel: managers only (the original's `List undoable changes` and `Undo changes`).
  {
    endpoint: 'transactions',
    method: 'GET',
    name: 'list the transactions',
    path: () => '/@transactions',
    expected: (c) => allow(200, ['Manager'])(c),
  },
  {
    endpoint: 'transactions',
    method: 'PATCH',
    name: 'undo an unknown transaction',
    path: () => '/@transactions',
    body: { transaction_ids: ['bm8tc3VjaC10cmFuc2FjdGlvbg=='] },
    expected: (c) => allow(404, ['Manager'])(c),
  },
  {
    endpoint: 'database',
    method: 'GET',
    name: 'read the content store statistics',
    path: () => '/@database',
    expected: (c) => allow(200, ADMINS)(c),
  },
  // The matrix's site has no mail settings: a caller let through is told so (400), and nothing is counted or sent.
  {
    endpoint: 'email-send',
    method: 'POST',
    name: 'send a mail to any address',
    path: () => '/@email-send',
    body: { to: 'jane@example.org', from: 'john@example.org', message: 'Hi' },
    expected: (c) => allow(400, ADMINS)(c),
  },
  {
    endpoint: 'email-notification',
    method: 'POST',
    name: 'write to the site owner (contact form)',
    path: () => '/@email-notification',
    body: { from: 'john@example.org', message: 'Hi' },
    expected: () => 400,
  },
  // The site as a ZIP (plone.exportimport's `@export`, `@import`): Site Administrators and Managers only. A body
  // that is not a ZIP is refused (400) once the caller is let through, importing nothing.
  {
    endpoint: 'export',
    method: 'GET',
    name: 'export the site as a ZIP',
    path: () => '/@export',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'export',
    method: 'POST',
    name: 'export the site as a ZIP (plone.exportimport’s method)',
    path: () => '/@export',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'import',
    method: 'POST',
    name: 'import a body that is not a ZIP',
    path: () => '/@import',
    headers: { 'Content-Type': 'application/zip' },
    body: 'abcd',
    expected: (c) => allow(400, ADMINS)(c),
  },
  // Resumable uploads: announcing one is adding (or, `@tus-replace`, modifying); an upload is its announcer's only,
  // so to anyone else who may view the folder an id is unknown (404).
  {
    endpoint: 'tus-upload',
    method: 'POST',
    name: 'announce a resumable upload into the folder',
    path: () => '/matrix/@tus-upload',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '4', 'Upload-Metadata': 'filename YS50eHQ=' },
    expected: (c) => allow(201, ADD)(c),
  },
  {
    endpoint: 'tus-upload',
    method: 'GET',
    name: 'ask the offset of an unknown upload',
    path: () => '/matrix/@tus-upload/0123456789abcdef0123456789abcdef',
    headers: { 'Tus-Resumable': '1.0.0' },
    expected: (c) => allow(404, VIEW.private)(c),
  },
  {
    endpoint: 'tus-upload',
    method: 'PATCH',
    name: 'append to an unknown upload',
    path: () => '/matrix/@tus-upload/0123456789abcdef0123456789abcdef',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    body: 'abcd',
    expected: (c) => allow(404, VIEW.private)(c),
  },
  {
    endpoint: 'tus-replace',
    method: 'POST',
    name: 'announce a resumable upload replacing the file of a document (it has none: 400)',
    onContent: true,
    path: (d) => `${d}/@tus-replace`,
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '4' },
    expected: (c, s) => whenViewing(s, allow(400, MODIFY[s]))(c),
  },
  {
    endpoint: 'addons',
    method: 'GET',
    name: 'list the add-ons',
    path: () => '/@addons',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'addons',
    method: 'POST',
    name: 'install an unknown add-on',
    path: () => '/@addons/example/install',
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'breadcrumbs',
    method: 'GET',
    name: 'read the breadcrumbs of a document',
    onContent: true,
    path: (d) => `${d}/@breadcrumbs`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'contextnavigation',
    method: 'GET',
    name: 'read the context navigation of a document',
    onContent: true,
    path: (d) => `${d}/@contextnavigation`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'inherit',
    method: 'GET',
    name: 'read the behavior values a document inherits',
    onContent: true,
    path: (d) => `${d}/@inherit?expand.inherit.behaviors=cms.excludefromnavigation`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'navigation',
    method: 'GET',
    name: 'read the navigation of a document',
    onContent: true,
    path: (d) => `${d}/@navigation`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'navroot',
    method: 'GET',
    name: 'read the navigation root of a document',
    onContent: true,
    path: (d) => `${d}/@navroot`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  // The type list: authenticated viewers only.
  {
    endpoint: 'types',
    method: 'GET',
    name: 'list the types addable to a document',
    onContent: true,
    path: (d) => `${d}/@types`,
    expected: (c, s) =>
      allow(
        200,
        VIEW[s].filter((v) => v !== 'anonymous'),
      )(c),
  },
  // @types/<type>, @vocabularies, @sources, @querysources (issue 11): viewers; users and tags need Modify portal content.
  {
    endpoint: 'types',
    method: 'GET',
    name: 'read the schema of a type',
    path: () => '/@types/Document',
    expected: (c) => allow(200, LOGGED_IN)(c),
  },
  // Schema editing and the content types panel: cms.schemaeditor.ManageSchemata, at the site root.
  {
    endpoint: 'types',
    method: 'POST',
    name: 'add a field to a type',
    path: () => '/@types/Link',
    body: (_doc: string, who: Caller) => ({ factory: 'label_textline_field', title: `Matrix ${who}` }),
    expected: (c) => allow(201, ADMINS)(c),
  },
  {
    endpoint: 'types',
    method: 'PATCH',
    name: 'change the fields of a type (nothing)',
    path: () => '/@types/Link',
    body: {},
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'types',
    method: 'PUT',
    name: 'replace the generated schema of a type (with none)',
    path: () => '/@types/Image',
    body: {},
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'types',
    method: 'DELETE',
    name: 'remove a field of a type (none such)',
    path: () => '/@types/Link/no_such_field',
    expected: (c) => allow(404, ADMINS)(c),
  },
  // The listing's spelling of one field of a type.
  {
    endpoint: 'type',
    method: 'GET',
    name: 'read one field of a type',
    path: () => '/@type/Document/title',
    expected: (c) => allow(200, LOGGED_IN)(c),
  },
  {
    endpoint: 'type',
    method: 'PATCH',
    name: 'change one field of a type (none such)',
    path: () => '/@type/Link/no_such_field',
    body: {},
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'type',
    method: 'DELETE',
    name: 'remove one field of a type (none such)',
    path: () => '/@type/Link/no_such_field',
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'GET',
    name: 'list the content types panel',
    path: () => '/@controlpanels/cms-types',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'POST',
    name: 'create a content type',
    path: () => '/@controlpanels/cms-types',
    body: (_doc: string, who: Caller) => ({ title: `Matrix type ${who}` }),
    expected: (c) => allow(201, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'PATCH',
    name: 'change a content type',
    path: () => '/@controlpanels/cms-types/Link',
    body: { description: 'A link' },
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'DELETE',
    name: 'remove a content type (none such)',
    path: () => '/@controlpanels/cms-types/no_such_type',
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'vocabularies',
    method: 'GET',
    name: 'list the vocabularies on a document',
    onContent: true,
    path: (d) => `${d}/@vocabularies`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'vocabularies',
    method: 'GET',
    name: 'read the field kinds vocabulary on a document',
    onContent: true,
    path: (d) => `${d}/@vocabularies/Fields`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'vocabularies',
    method: 'GET',
    name: 'read the users vocabulary on a document',
    onContent: true,
    path: (d) => `${d}/@vocabularies/cms.app.vocabularies.Users`,
    expected: (c, s) => whenViewing(s, allow(200, MODIFY[s]))(c),
  },
  {
    endpoint: 'sources',
    method: 'GET',
    name: "read a field's source on a document",
    onContent: true,
    path: (d) => `${d}/@sources/allow_discussion`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  {
    endpoint: 'querysources',
    method: 'GET',
    name: "search a field's query source on a document",
    onContent: true,
    path: (d) => `${d}/@querysources/relatedItems?query=doc`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  // Registry: cms.ManagePortal.
  {
    endpoint: 'registry',
    method: 'GET',
    name: 'read the registry',
    path: () => '/@registry',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'registry',
    method: 'PATCH',
    name: 'write the registry',
    path: () => '/@registry',
    body: {},
    expected: (c) => allow(204, ADMINS)(c),
  },
  // Control panels (cms.ManagePortal), @site (any viewer), @system (Manager), @tiles (deprecated, empty), @userschema.
  {
    endpoint: 'controlpanels',
    method: 'GET',
    name: 'list the control panels',
    path: () => '/@controlpanels',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'PATCH',
    name: 'write a control panel',
    path: () => '/@controlpanels/editing',
    body: {},
    expected: (c) => allow(204, ADMINS)(c),
  },
  // Content rules: @controlpanels/content-rules (create, delete) and <folder>/@content-rules (cms.ManagePortal).
  {
    endpoint: 'controlpanels',
    method: 'POST',
    name: 'create a content rule',
    path: () => '/@controlpanels/content-rules',
    body: { title: 'Matrix rule', event: 'Object modified' },
    expected: (c) => allow(201, ADMINS)(c),
  },
  {
    endpoint: 'controlpanels',
    method: 'DELETE',
    name: 'delete a content rule (none such)',
    path: () => '/@controlpanels/content-rules/rule-999999',
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'content-rules',
    method: 'GET',
    name: 'list the content rules of a context',
    onContent: true,
    path: (d) => `${d}/@content-rules`,
    expected: (c, s) => whenViewing(s, allow(200, ADMINS))(c),
  },
  {
    endpoint: 'content-rules',
    method: 'POST',
    name: 'assign a content rule (none such)',
    path: () => '/matrix/@content-rules/rule-999999',
    expected: (c) => allow(404, ADMINS)(c),
  },
  {
    endpoint: 'content-rules',
    method: 'PATCH',
    name: 'enable content rules of a folder',
    path: () => '/matrix/@content-rules',
    body: { 'form.button.Enable': true, rule_ids: [] },
    expected: (c) => allow(400, ADMINS)(c),
  },
  {
    endpoint: 'content-rules',
    method: 'DELETE',
    name: 'unassign content rules of a folder',
    path: () => '/matrix/@content-rules',
    body: { rule_ids: ['rule-999999'] },
    expected: (c) => allow(204, ADMINS)(c),
  },
  { endpoint: 'site', method: 'GET', name: 'read the site settings', path: () => '/@site', expected: () => 200 },
  // Link integrity (issue 15): Access contents information on the context, which everyone who may view it has.
  {
    endpoint: 'linkintegrity',
    method: 'GET',
    name: 'link integrity of an unknown object',
    path: () => '/@linkintegrity?uids=00000000000000000000000000000000',
    expected: () => 200,
  },
  {
    endpoint: 'linkintegrity',
    method: 'GET',
    name: 'link integrity on a document',
    onContent: true,
    path: (d) => `${d}/@linkintegrity?uids=00000000000000000000000000000000`,
    expected: (c, s) => allow(200, VIEW[s])(c),
  },
  // Relations (issue 15): everyone may list them (filtered); writing them takes Modify on the site root (as the
  // original platform) and on each source; a rebuild, cms.ManagePortal.
  { endpoint: 'relations', method: 'GET', name: 'relation statistics', path: () => '/@relations', expected: () => 200 },
  {
    endpoint: 'relations',
    method: 'POST',
    name: 'add a relation',
    path: () => '/@relations',
    body: { items: [{ source: '/matrix', target: '/matrix-target', relation: 'relatedItems' }] },
    expected: (c) => allow(204, ['Editor', 'group Editor', ...ADMINS])(c),
  },
  {
    endpoint: 'relations',
    method: 'POST',
    name: 'rebuild the relations',
    path: () => '/@relations/rebuild',
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'relations',
    method: 'DELETE',
    name: 'delete relations',
    path: () => '/@relations',
    body: { source: '/matrix-target', relation: 'relatedItems' },
    expected: (c) => allow(204, ['Editor', 'group Editor', ...ADMINS])(c),
  },
  {
    endpoint: 'system',
    method: 'GET',
    name: 'read the system information',
    path: () => '/@system',
    expected: (c) => allow(200, ['Manager'])(c),
  },
  { endpoint: 'tiles', method: 'GET', name: 'list the tiles', path: () => '/@tiles', expected: () => 200 },
  {
    endpoint: 'userschema',
    method: 'GET',
    name: 'read the user schema',
    path: () => '/@userschema',
    expected: () => 200,
  },
  // Users: Manager only, denial is 401 with body null (the specification's exception).
  {
    endpoint: 'users',
    method: 'GET',
    name: 'list users',
    path: () => '/@users',
    expected: (c) => allow(200, ['Manager'], { others: 401 })(c),
  },
  {
    endpoint: 'users',
    method: 'GET',
    name: 'read oneself',
    path: (_d, c) => `/@users/${userId(c === 'anonymous' ? 'Member' : c)}`,
    expected: (c) => (c === 'anonymous' ? 401 : 200),
  },
  {
    endpoint: 'users',
    method: 'GET',
    name: 'read another user',
    path: () => '/@users/admin',
    expected: (c) => allow(200, ['Manager'], { others: 401 })(c),
  },
  {
    endpoint: 'users',
    method: 'POST',
    name: 'create a user',
    path: () => '/@users',
    body: () => ({ username: `new-${Math.random().toString(36).slice(2, 8)}`, password: 'secret-new' }),
    expected: (c) => allow(201, ['Manager'], { others: 401 })(c),
  },
  // A password reset with a token: anyone may try (the token is the proof); a bad one is 400 for all.
  {
    endpoint: 'users',
    method: 'POST',
    name: 'reset a password with a bad token',
    path: () => '/@users/admin/reset-password',
    body: { reset_token: 'not-a-token', new_password: 'whatever-new' },
    expected: () => 400,
  },
  {
    endpoint: 'users',
    method: 'PATCH',
    name: 'edit oneself',
    path: (_d, c) => `/@users/${userId(c === 'anonymous' ? 'Member' : c)}`,
    body: { description: 'about me' },
    expected: (c) => (c === 'anonymous' ? 401 : 204),
  },
  {
    endpoint: 'users',
    method: 'DELETE',
    name: 'delete a user',
    path: () => '/@users/victim',
    expected: (c) => allow(204, ['Manager'], { others: 401 })(c),
  },
  // Groups, roles, principals.
  {
    endpoint: 'groups',
    method: 'GET',
    name: 'list groups',
    path: () => '/@groups',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'groups',
    method: 'POST',
    name: 'create a group',
    path: () => '/@groups',
    body: () => ({ groupname: `g-${Math.random().toString(36).slice(2, 8)}`, title: 'G' }),
    expected: (c) => allow(201, ADMINS)(c),
  },
  {
    endpoint: 'groups',
    method: 'PATCH',
    name: 'edit a group',
    path: () => '/@groups/matrixgroup',
    body: { description: 'd' },
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'groups',
    method: 'DELETE',
    name: 'delete a group',
    path: () => '/@groups/doomed',
    expected: (c) => allow(204, ADMINS)(c),
  },
  {
    endpoint: 'roles',
    method: 'GET',
    name: 'list roles',
    path: () => '/@roles',
    expected: (c) => allow(200, LOGGED_IN)(c),
  },
  {
    endpoint: 'principals',
    method: 'GET',
    name: 'search principals',
    path: () => '/@principals?search=adm',
    expected: (c) => allow(200, ADMINS)(c),
  },
  {
    endpoint: 'portrait',
    method: 'GET',
    name: "another user's missing portrait",
    path: () => '/@portrait/admin',
    expected: () => 404,
  },
  // @comments (discussion service): off on a new site (addendum §3), so whoever may view the object gets 404.
  {
    endpoint: 'comments',
    method: 'GET',
    name: 'list comments',
    onContent: true,
    path: (d) => `${d}/@comments`,
    expected: (c, s) => whenViewing(s, () => 404)(c),
  },
  {
    endpoint: 'comments',
    method: 'POST',
    name: 'add a comment',
    onContent: true,
    path: (d) => `${d}/@comments/`,
    body: { text: 'Hello' },
    expected: (c, s) => whenViewing(s, () => 404)(c),
  },
  // Moderation too: its permission is evaluated after the 404, so a caller who is no moderator learns no more.
  {
    endpoint: 'comments',
    method: 'POST',
    name: 'moderate a comment',
    onContent: true,
    path: (d) => `${d}/@comments/1400000000000000/@workflow/publish`,
    expected: (c, s) => whenViewing(s, () => 404)(c),
  },
  {
    endpoint: 'comments',
    method: 'PATCH',
    name: 'edit a comment',
    onContent: true,
    path: (d) => `${d}/@comments/1400000000000000`,
    body: { text: 'Edited' },
    expected: (c, s) => whenViewing(s, () => 404)(c),
  },
  {
    endpoint: 'comments',
    method: 'DELETE',
    name: 'delete a comment',
    onContent: true,
    path: (d) => `${d}/@comments/1400000000000000`,
    expected: (c, s) => whenViewing(s, () => 404)(c),
  },
  // Login ignores the caller's credentials; renew and logout need a token.
  {
    endpoint: 'login',
    method: 'POST',
    name: 'log in',
    path: () => '/@login',
    body: { login: 'admin', password: 'admin' },
    expected: () => 200,
  },
  { endpoint: 'login', method: 'GET', name: 'login options', path: () => '/@login', expected: () => 200 },
  // With Basic credentials a renewal issues a first token; a logout has no token to revoke (400).
  {
    endpoint: 'login-renew',
    method: 'POST',
    name: 'renew',
    path: () => '/@login-renew',
    expected: (c) => allow(200, LOGGED_IN)(c),
  },
  {
    endpoint: 'logout',
    method: 'POST',
    name: 'log out with Basic',
    path: () => '/@logout',
    expected: (c) => (c === 'anonymous' ? 401 : 400),
  },
];

function userId(caller: Caller): string {
  return caller.toLowerCase().replace(/\s+/g, '-');
}

function authFor(caller: Caller): string | null {
  if (caller === 'anonymous') return null;
  return 'Basic ' + Buffer.from(`${userId(caller)}:secret-${userId(caller)}`).toString('base64');
}

describe('permission matrix', () => {
  let t: TestSuite;
  let counter = 0;

  async function admin(method: string, path: string, body?: unknown) {
    const response = await t.request(method, path, { body });
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  }

  /** A new document in `state`, made by the administrator or (for the Owner) by the caller. */
  async function documentIn(state: State, caller?: Caller): Promise<string> {
    const id = `doc-${++counter}`;
    const body = { '@type': 'Document', id, title: `Matrix ${id}` };
    if (caller === 'Owner') {
      const created = await t.request('POST', '/matrix', { auth: authFor('Owner'), body });
      if (created.status !== 201) throw new Error(`the Owner's POST answered ${created.status}`);
    } else await admin('POST', '/matrix', body);
    if (state === 'pending') await admin('POST', `/matrix/${id}/@workflow/submit`);
    if (state === 'published') await admin('POST', `/matrix/${id}/@workflow/publish`);
    return `/matrix/${id}`;
  }

  beforeAll(async () => {
    t = await startTestSuite({ EVENT_FLUSH_TIMEOUT_MS: '300' });
    for (const caller of LOGGED_IN) {
      const roles = (GLOBAL_CALLERS as readonly string[]).includes(caller)
        ? [caller]
        : caller === 'Owner'
          ? ['Contributor']
          : ['Member'];
      await admin('POST', '/@users', { username: userId(caller), password: `secret-${userId(caller)}`, roles });
    }
    await admin('POST', '/', { '@type': 'Folder', id: 'matrix', title: 'Matrix' });
    await admin('POST', '/', { '@type': 'Folder', id: 'matrix-target', title: 'Matrix target' });
    await admin('POST', '/@groups', { groupname: 'matrixgroup', title: 'Matrix group' });
    await admin('POST', '/@groups', {
      groupname: 'matrixeditors',
      title: 'Matrix editors',
      roles: ['Editor'],
      users: [userId('group Editor')],
    });
    await admin('POST', '/@groups', {
      groupname: 'matrixreviewers',
      title: 'Matrix reviewers',
      users: [userId('group local Reviewer')],
    });
    const entries = LOCAL_CALLERS.map((caller) => ({ id: userId(caller), roles: { [LOCAL_ROLE[caller]]: true } }));
    entries.push({ id: 'matrixreviewers', roles: { Reviewer: true } });
    await admin('POST', '/matrix/@sharing', { entries });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('has a row for every route and method of the routing table', () => {
    const covered = new Set(MATRIX.map((row) => `${row.method} @${row.endpoint}`));
    const missing = Object.entries(ROUTES).flatMap(([endpoint, route]) =>
      route.methods.map((method) => `${method} @${endpoint}`).filter((key) => !covered.has(key)),
    );
    expect(missing).toEqual([]);
  });

  for (const row of MATRIX) {
    const states: readonly State[] = row.onContent ? STATES : ['private'];
    for (const state of states) {
      const label = row.onContent ? `${row.method} ${row.name} (${state})` : `${row.method} ${row.name}`;
      it(label, async () => {
        const shared = row.onContent && !row.fresh ? await documentIn(state) : '';
        const ownersShared = row.onContent && !row.fresh ? await documentIn(state, 'Owner') : '';
        const outcomes: Record<string, number> = {};
        const expected: Record<string, number> = {};
        for (const caller of CALLERS) {
          const doc = row.fresh ? await documentIn(state, caller) : caller === 'Owner' ? ownersShared : shared;
          if (row.checkedOut) await admin('POST', `${doc}/@workingcopy`);
          if (row.name === 'delete a user')
            await t.request('POST', '/@users', { body: { username: 'victim', password: 'secret-victim' } });
          if (row.name === 'delete a group')
            await t.request('POST', '/@groups', { body: { groupname: 'doomed', title: 'Doomed' } });
          const body =
            typeof row.body === 'function'
              ? (row.body as (doc: string, who: Caller) => unknown)(doc, caller)
              : row.body;
          const response = await t.request(row.method, row.path(doc, caller), {
            auth: authFor(caller),
            body,
            headers: row.headers,
          });
          outcomes[caller] = response.status;
          expected[caller] = row.expected(caller, state);
          if (
            response.status === 401 &&
            row.endpoint !== 'users' &&
            row.endpoint !== 'login-renew' &&
            row.endpoint !== 'logout'
          ) {
            expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
          }
        }
        expect(outcomes).toEqual(expected);
      });
    }
  }
});
