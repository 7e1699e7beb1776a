// Original file: proto/cms/identity/v1/identity.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateRequest as _cms_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _cms_identity_v1_AuthenticateRequest__Output } from '../../../cms/identity/v1/AuthenticateRequest';
import type { DescribePrincipalsRequest as _cms_identity_v1_DescribePrincipalsRequest, DescribePrincipalsRequest__Output as _cms_identity_v1_DescribePrincipalsRequest__Output } from '../../../cms/identity/v1/DescribePrincipalsRequest';
import type { ExportPrincipalsRequest as _cms_identity_v1_ExportPrincipalsRequest, ExportPrincipalsRequest__Output as _cms_identity_v1_ExportPrincipalsRequest__Output } from '../../../cms/identity/v1/ExportPrincipalsRequest';
import type { ExportedPrincipal as _cms_identity_v1_ExportedPrincipal, ExportedPrincipal__Output as _cms_identity_v1_ExportedPrincipal__Output } from '../../../cms/identity/v1/ExportedPrincipal';
import type { GetPrincipalRequest as _cms_identity_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _cms_identity_v1_GetPrincipalRequest__Output } from '../../../cms/identity/v1/GetPrincipalRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { Invalidation as _cms_identity_v1_Invalidation, Invalidation__Output as _cms_identity_v1_Invalidation__Output } from '../../../cms/identity/v1/Invalidation';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';
import type { PrincipalSummaries as _cms_identity_v1_PrincipalSummaries, PrincipalSummaries__Output as _cms_identity_v1_PrincipalSummaries__Output } from '../../../cms/identity/v1/PrincipalSummaries';
import type { SearchPrincipalsRequest as _cms_identity_v1_SearchPrincipalsRequest, SearchPrincipalsRequest__Output as _cms_identity_v1_SearchPrincipalsRequest__Output } from '../../../cms/identity/v1/SearchPrincipalsRequest';
import type { WatchInvalidationsRequest as _cms_identity_v1_WatchInvalidationsRequest, WatchInvalidationsRequest__Output as _cms_identity_v1_WatchInvalidationsRequest__Output } from '../../../cms/identity/v1/WatchInvalidationsRequest';

export interface IdentityServiceClient extends grpc.Client {
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  
  DescribePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  DescribePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  DescribePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  DescribePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  describePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  describePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  describePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  describePrincipals(argument: _cms_identity_v1_DescribePrincipalsRequest, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  
  ExportPrincipals(argument: _cms_identity_v1_ExportPrincipalsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_ExportedPrincipal__Output>;
  ExportPrincipals(argument: _cms_identity_v1_ExportPrincipalsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_ExportedPrincipal__Output>;
  exportPrincipals(argument: _cms_identity_v1_ExportPrincipalsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_ExportedPrincipal__Output>;
  exportPrincipals(argument: _cms_identity_v1_ExportPrincipalsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_ExportedPrincipal__Output>;
  
  GetPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _cms_identity_v1_GetPrincipalRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  
  SearchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  SearchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  SearchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  SearchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  searchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  searchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  searchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  searchPrincipals(argument: _cms_identity_v1_SearchPrincipalsRequest, callback: grpc.requestCallback<_cms_identity_v1_PrincipalSummaries__Output>): grpc.ClientUnaryCall;
  
  WatchInvalidations(argument: _cms_identity_v1_WatchInvalidationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_Invalidation__Output>;
  WatchInvalidations(argument: _cms_identity_v1_WatchInvalidationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_Invalidation__Output>;
  watchInvalidations(argument: _cms_identity_v1_WatchInvalidationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_Invalidation__Output>;
  watchInvalidations(argument: _cms_identity_v1_WatchInvalidationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_identity_v1_Invalidation__Output>;
  
}

export interface IdentityServiceHandlers extends grpc.UntypedServiceImplementation {
  Authenticate: grpc.handleUnaryCall<_cms_identity_v1_AuthenticateRequest__Output, _cms_common_v1_Principal>;
  
  DescribePrincipals: grpc.handleUnaryCall<_cms_identity_v1_DescribePrincipalsRequest__Output, _cms_identity_v1_PrincipalSummaries>;
  
  ExportPrincipals: grpc.handleServerStreamingCall<_cms_identity_v1_ExportPrincipalsRequest__Output, _cms_identity_v1_ExportedPrincipal>;
  
  GetPrincipal: grpc.handleUnaryCall<_cms_identity_v1_GetPrincipalRequest__Output, _cms_common_v1_Principal>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  SearchPrincipals: grpc.handleUnaryCall<_cms_identity_v1_SearchPrincipalsRequest__Output, _cms_identity_v1_PrincipalSummaries>;
  
  WatchInvalidations: grpc.handleServerStreamingCall<_cms_identity_v1_WatchInvalidationsRequest__Output, _cms_identity_v1_Invalidation>;
  
}

export interface IdentityServiceDefinition extends grpc.ServiceDefinition {
  Authenticate: MethodDefinition<_cms_identity_v1_AuthenticateRequest, _cms_common_v1_Principal, _cms_identity_v1_AuthenticateRequest__Output, _cms_common_v1_Principal__Output>
  DescribePrincipals: MethodDefinition<_cms_identity_v1_DescribePrincipalsRequest, _cms_identity_v1_PrincipalSummaries, _cms_identity_v1_DescribePrincipalsRequest__Output, _cms_identity_v1_PrincipalSummaries__Output>
  ExportPrincipals: MethodDefinition<_cms_identity_v1_ExportPrincipalsRequest, _cms_identity_v1_ExportedPrincipal, _cms_identity_v1_ExportPrincipalsRequest__Output, _cms_identity_v1_ExportedPrincipal__Output>
  GetPrincipal: MethodDefinition<_cms_identity_v1_GetPrincipalRequest, _cms_common_v1_Principal, _cms_identity_v1_GetPrincipalRequest__Output, _cms_common_v1_Principal__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  SearchPrincipals: MethodDefinition<_cms_identity_v1_SearchPrincipalsRequest, _cms_identity_v1_PrincipalSummaries, _cms_identity_v1_SearchPrincipalsRequest__Output, _cms_identity_v1_PrincipalSummaries__Output>
  WatchInvalidations: MethodDefinition<_cms_identity_v1_WatchInvalidationsRequest, _cms_identity_v1_Invalidation, _cms_identity_v1_WatchInvalidationsRequest__Output, _cms_identity_v1_Invalidation__Output>
}
