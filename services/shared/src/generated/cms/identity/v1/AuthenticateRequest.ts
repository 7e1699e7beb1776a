// Original file: proto/cms/identity/v1/identity.proto

import type { BasicCredentials as _cms_identity_v1_BasicCredentials, BasicCredentials__Output as _cms_identity_v1_BasicCredentials__Output } from '../../../cms/identity/v1/BasicCredentials';

export interface AuthenticateRequest {
  'basic'?: (_cms_identity_v1_BasicCredentials | null);
  'bearer_token'?: (string);
  'credentials'?: "basic"|"bearer_token";
}

export interface AuthenticateRequest__Output {
  'basic'?: (_cms_identity_v1_BasicCredentials__Output | null);
  'bearer_token'?: (string);
  'credentials'?: "basic"|"bearer_token";
}
