import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { AuthenticateRequest as _cms_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _cms_identity_v1_AuthenticateRequest__Output } from './cms/identity/v1/AuthenticateRequest';
import type { BasicCredentials as _cms_identity_v1_BasicCredentials, BasicCredentials__Output as _cms_identity_v1_BasicCredentials__Output } from './cms/identity/v1/BasicCredentials';
import type { GetPrincipalRequest as _cms_identity_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _cms_identity_v1_GetPrincipalRequest__Output } from './cms/identity/v1/GetPrincipalRequest';
import type { IdentityServiceClient as _cms_identity_v1_IdentityServiceClient, IdentityServiceDefinition as _cms_identity_v1_IdentityServiceDefinition } from './cms/identity/v1/IdentityService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    common: {
      v1: {
        HttpRequest: MessageTypeDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpRequest__Output>
        HttpResponse: MessageTypeDefinition<_cms_common_v1_HttpResponse, _cms_common_v1_HttpResponse__Output>
        Principal: MessageTypeDefinition<_cms_common_v1_Principal, _cms_common_v1_Principal__Output>
        QueryParam: MessageTypeDefinition<_cms_common_v1_QueryParam, _cms_common_v1_QueryParam__Output>
      }
    }
    identity: {
      v1: {
        AuthenticateRequest: MessageTypeDefinition<_cms_identity_v1_AuthenticateRequest, _cms_identity_v1_AuthenticateRequest__Output>
        BasicCredentials: MessageTypeDefinition<_cms_identity_v1_BasicCredentials, _cms_identity_v1_BasicCredentials__Output>
        GetPrincipalRequest: MessageTypeDefinition<_cms_identity_v1_GetPrincipalRequest, _cms_identity_v1_GetPrincipalRequest__Output>
        IdentityService: SubtypeConstructor<typeof grpc.Client, _cms_identity_v1_IdentityServiceClient> & { service: _cms_identity_v1_IdentityServiceDefinition }
      }
    }
  }
}

