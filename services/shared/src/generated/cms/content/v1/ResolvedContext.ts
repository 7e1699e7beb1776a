// Original file: proto/cms/content/v1/context.proto

import type { LocalRoleGrant as _cms_content_v1_LocalRoleGrant, LocalRoleGrant__Output as _cms_content_v1_LocalRoleGrant__Output } from '../../../cms/content/v1/LocalRoleGrant';

export interface ResolvedContext {
  'uid'?: (string);
  'path'?: (string);
  'portal_type'?: (string);
  'state'?: (string);
  'local_roles'?: (_cms_content_v1_LocalRoleGrant)[];
  'allow_discussion'?: (boolean);
  'type_allows_discussion'?: (boolean);
  '_state'?: "state";
  '_allow_discussion'?: "allow_discussion";
}

export interface ResolvedContext__Output {
  'uid': (string);
  'path': (string);
  'portal_type': (string);
  'state'?: (string);
  'local_roles': (_cms_content_v1_LocalRoleGrant__Output)[];
  'allow_discussion'?: (boolean);
  'type_allows_discussion': (boolean);
  '_state'?: "state";
  '_allow_discussion'?: "allow_discussion";
}
