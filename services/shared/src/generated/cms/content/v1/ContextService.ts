// Original file: proto/cms/content/v1/context.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ResolveContextRequest as _cms_content_v1_ResolveContextRequest, ResolveContextRequest__Output as _cms_content_v1_ResolveContextRequest__Output } from '../../../cms/content/v1/ResolveContextRequest';
import type { ResolvedContext as _cms_content_v1_ResolvedContext, ResolvedContext__Output as _cms_content_v1_ResolvedContext__Output } from '../../../cms/content/v1/ResolvedContext';

export interface ContextServiceClient extends grpc.Client {
  Resolve(argument: _cms_content_v1_ResolveContextRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _cms_content_v1_ResolveContextRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _cms_content_v1_ResolveContextRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _cms_content_v1_ResolveContextRequest, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  resolve(argument: _cms_content_v1_ResolveContextRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  resolve(argument: _cms_content_v1_ResolveContextRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  resolve(argument: _cms_content_v1_ResolveContextRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  resolve(argument: _cms_content_v1_ResolveContextRequest, callback: grpc.requestCallback<_cms_content_v1_ResolvedContext__Output>): grpc.ClientUnaryCall;
  
}

export interface ContextServiceHandlers extends grpc.UntypedServiceImplementation {
  Resolve: grpc.handleUnaryCall<_cms_content_v1_ResolveContextRequest__Output, _cms_content_v1_ResolvedContext>;
  
}

export interface ContextServiceDefinition extends grpc.ServiceDefinition {
  Resolve: MethodDefinition<_cms_content_v1_ResolveContextRequest, _cms_content_v1_ResolvedContext, _cms_content_v1_ResolveContextRequest__Output, _cms_content_v1_ResolvedContext__Output>
}
