// Original file: proto/cms/identity/v1/identity.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateRequest as _cms_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _cms_identity_v1_AuthenticateRequest__Output } from '../../../cms/identity/v1/AuthenticateRequest';
import type { GetPrincipalRequest as _cms_identity_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _cms_identity_v1_GetPrincipalRequest__Output } from '../../../cms/identity/v1/GetPrincipalRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from '../../../cms/common/v1/Principal';

export interface IdentityServiceClient extends grpc.Client {
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _cms_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _cms_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_cms_common_v1_Principal__Output>): grpc.ClientUnaryCall;
  
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
  
}

export interface IdentityServiceHandlers extends grpc.UntypedServiceImplementation {
  Authenticate: grpc.handleUnaryCall<_cms_identity_v1_AuthenticateRequest__Output, _cms_common_v1_Principal>;
  
  GetPrincipal: grpc.handleUnaryCall<_cms_identity_v1_GetPrincipalRequest__Output, _cms_common_v1_Principal>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
}

export interface IdentityServiceDefinition extends grpc.ServiceDefinition {
  Authenticate: MethodDefinition<_cms_identity_v1_AuthenticateRequest, _cms_common_v1_Principal, _cms_identity_v1_AuthenticateRequest__Output, _cms_common_v1_Principal__Output>
  GetPrincipal: MethodDefinition<_cms_identity_v1_GetPrincipalRequest, _cms_common_v1_Principal, _cms_identity_v1_GetPrincipalRequest__Output, _cms_common_v1_Principal__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
}
