import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { AuthenticateRequest as _cms_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _cms_identity_v1_AuthenticateRequest__Output } from './cms/identity/v1/AuthenticateRequest';
import type { BasicCredentials as _cms_identity_v1_BasicCredentials, BasicCredentials__Output as _cms_identity_v1_BasicCredentials__Output } from './cms/identity/v1/BasicCredentials';
import type { DescribePrincipalsRequest as _cms_identity_v1_DescribePrincipalsRequest, DescribePrincipalsRequest__Output as _cms_identity_v1_DescribePrincipalsRequest__Output } from './cms/identity/v1/DescribePrincipalsRequest';
import type { ExportPrincipalsRequest as _cms_identity_v1_ExportPrincipalsRequest, ExportPrincipalsRequest__Output as _cms_identity_v1_ExportPrincipalsRequest__Output } from './cms/identity/v1/ExportPrincipalsRequest';
import type { ExportedGroup as _cms_identity_v1_ExportedGroup, ExportedGroup__Output as _cms_identity_v1_ExportedGroup__Output } from './cms/identity/v1/ExportedGroup';
import type { ExportedPrincipal as _cms_identity_v1_ExportedPrincipal, ExportedPrincipal__Output as _cms_identity_v1_ExportedPrincipal__Output } from './cms/identity/v1/ExportedPrincipal';
import type { ExportedUser as _cms_identity_v1_ExportedUser, ExportedUser__Output as _cms_identity_v1_ExportedUser__Output } from './cms/identity/v1/ExportedUser';
import type { GetPrincipalRequest as _cms_identity_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _cms_identity_v1_GetPrincipalRequest__Output } from './cms/identity/v1/GetPrincipalRequest';
import type { IdentityServiceClient as _cms_identity_v1_IdentityServiceClient, IdentityServiceDefinition as _cms_identity_v1_IdentityServiceDefinition } from './cms/identity/v1/IdentityService';
import type { Invalidation as _cms_identity_v1_Invalidation, Invalidation__Output as _cms_identity_v1_Invalidation__Output } from './cms/identity/v1/Invalidation';
import type { PrincipalSummaries as _cms_identity_v1_PrincipalSummaries, PrincipalSummaries__Output as _cms_identity_v1_PrincipalSummaries__Output } from './cms/identity/v1/PrincipalSummaries';
import type { PrincipalSummary as _cms_identity_v1_PrincipalSummary, PrincipalSummary__Output as _cms_identity_v1_PrincipalSummary__Output } from './cms/identity/v1/PrincipalSummary';
import type { SearchPrincipalsRequest as _cms_identity_v1_SearchPrincipalsRequest, SearchPrincipalsRequest__Output as _cms_identity_v1_SearchPrincipalsRequest__Output } from './cms/identity/v1/SearchPrincipalsRequest';
import type { WatchInvalidationsRequest as _cms_identity_v1_WatchInvalidationsRequest, WatchInvalidationsRequest__Output as _cms_identity_v1_WatchInvalidationsRequest__Output } from './cms/identity/v1/WatchInvalidationsRequest';

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
        DescribePrincipalsRequest: MessageTypeDefinition<_cms_identity_v1_DescribePrincipalsRequest, _cms_identity_v1_DescribePrincipalsRequest__Output>
        ExportPrincipalsRequest: MessageTypeDefinition<_cms_identity_v1_ExportPrincipalsRequest, _cms_identity_v1_ExportPrincipalsRequest__Output>
        ExportedGroup: MessageTypeDefinition<_cms_identity_v1_ExportedGroup, _cms_identity_v1_ExportedGroup__Output>
        ExportedPrincipal: MessageTypeDefinition<_cms_identity_v1_ExportedPrincipal, _cms_identity_v1_ExportedPrincipal__Output>
        ExportedUser: MessageTypeDefinition<_cms_identity_v1_ExportedUser, _cms_identity_v1_ExportedUser__Output>
        GetPrincipalRequest: MessageTypeDefinition<_cms_identity_v1_GetPrincipalRequest, _cms_identity_v1_GetPrincipalRequest__Output>
        IdentityService: SubtypeConstructor<typeof grpc.Client, _cms_identity_v1_IdentityServiceClient> & { service: _cms_identity_v1_IdentityServiceDefinition }
        Invalidation: MessageTypeDefinition<_cms_identity_v1_Invalidation, _cms_identity_v1_Invalidation__Output>
        PrincipalSummaries: MessageTypeDefinition<_cms_identity_v1_PrincipalSummaries, _cms_identity_v1_PrincipalSummaries__Output>
        PrincipalSummary: MessageTypeDefinition<_cms_identity_v1_PrincipalSummary, _cms_identity_v1_PrincipalSummary__Output>
        SearchPrincipalsRequest: MessageTypeDefinition<_cms_identity_v1_SearchPrincipalsRequest, _cms_identity_v1_SearchPrincipalsRequest__Output>
        WatchInvalidationsRequest: MessageTypeDefinition<_cms_identity_v1_WatchInvalidationsRequest, _cms_identity_v1_WatchInvalidationsRequest__Output>
      }
    }
  }
}

