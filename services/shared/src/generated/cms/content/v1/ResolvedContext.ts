// Original file: proto/cms/content/v1/context.proto

import type { LocalRoleGrant as _cms_content_v1_LocalRoleGrant, LocalRoleGrant__Output as _cms_content_v1_LocalRoleGrant__Output } from '../../../cms/content/v1/LocalRoleGrant';

export interface ResolvedContext {
  'uid'?: (string);
  'path'?: (string);
  'portal_type'?: (string);
  'state'?: (string);
  'local_roles'?: (_cms_content_v1_LocalRoleGrant)[];
  '_state'?: "state";
}

export interface ResolvedContext__Output {
  'uid': (string);
  'path': (string);
  'portal_type': (string);
  'state'?: (string);
  'local_roles': (_cms_content_v1_LocalRoleGrant__Output)[];
  '_state'?: "state";
}
