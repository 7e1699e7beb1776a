/**
 * The permission model every service enforces: permissions are granted to
 * roles; a caller holds the roles of their account and groups (`Principal.roles`),
 * plus `Anonymous` for everyone and `Authenticated` once logged in.
 *
 * This is the site-wide layer; local roles and workflow-state permissions on
 * content build on it.
 */

export const ROLES = [
  'Manager',
  'Site Administrator',
  'Editor',
  'Contributor',
  'Reviewer',
  'Reader',
  'Member',
  'Owner',
  'Authenticated',
  'Anonymous',
] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | 'View'
  | 'Access contents information'
  | 'Modify portal content'
  | 'Add portal content'
  | 'Delete objects'
  | 'Review portal content'
  | 'Request review'
  | 'cms.ManagePortal'
  | 'Manage users'
  | 'cms.schemaeditor.ManageSchemata'
  | 'Reply to item'
  | 'Moderate Discussion'
  | 'Change local roles'
  | 'Access previous versions'
  | 'Use mailhost services'
  | 'List undoable changes'
  | 'Undo changes'
  | 'plone.exportimport.export'
  | 'plone.exportimport.import';

/** Site-wide grants, as on a new site of the reference platform. */
export const SITE_PERMISSIONS: Readonly<Record<Permission, readonly Role[]>> = {
  View: ['Manager', 'Site Administrator', 'Editor', 'Contributor', 'Reviewer', 'Reader', 'Owner', 'Anonymous'],
  'Access contents information': [
    'Manager',
    'Site Administrator',
    'Editor',
    'Contributor',
    'Reviewer',
    'Reader',
    'Owner',
    'Anonymous',
  ],
  'Modify portal content': ['Manager', 'Site Administrator', 'Editor', 'Owner'],
  'Add portal content': ['Manager', 'Site Administrator', 'Contributor', 'Owner'],
  'Delete objects': ['Manager', 'Site Administrator', 'Editor', 'Owner'],
  'Review portal content': ['Manager', 'Site Administrator', 'Reviewer'],
  'Request review': ['Manager', 'Site Administrator', 'Contributor', 'Editor', 'Owner'],
  'cms.ManagePortal': ['Manager', 'Site Administrator'],
  'Manage users': ['Manager', 'Site Administrator'],
  'cms.schemaeditor.ManageSchemata': ['Manager', 'Site Administrator'],
  'Reply to item': [
    'Manager',
    'Site Administrator',
    'Editor',
    'Contributor',
    'Reviewer',
    'Reader',
    'Member',
    'Owner',
    'Authenticated',
  ],
  'Moderate Discussion': ['Manager', 'Site Administrator', 'Reviewer'],
  // The sharing form: who may grant local roles here.
  'Change local roles': ['Manager', 'Site Administrator', 'Owner', 'Editor'],
  // `@history`: whoever works with the content, not the public (as CMFEditions grants it).
  'Access previous versions': ['Manager', 'Site Administrator', 'Editor', 'Contributor', 'Reviewer', 'Reader', 'Owner'],
  // `@email-send`, mail to any address: the site's administrators only (as Plone grants it), not every member.
  'Use mailhost services': ['Manager', 'Site Administrator'],
  // `@transactions` (the Undo panel): site-wide changes of everyone's content, for managers only.
  'List undoable changes': ['Manager'],
  'Undo changes': ['Manager'],
  // `@export` and `@import` (the whole site as a ZIP): plone.exportimport's own permissions, granted alike.
  'plone.exportimport.export': ['Manager', 'Site Administrator'],
  'plone.exportimport.import': ['Manager', 'Site Administrator'],
};

export const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="CMS"' };
