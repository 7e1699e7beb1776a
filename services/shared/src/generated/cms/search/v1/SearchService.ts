// Original file: proto/cms/search/v1/search.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { QueryCollectionRequest as _cms_search_v1_QueryCollectionRequest, QueryCollectionRequest__Output as _cms_search_v1_QueryCollectionRequest__Output } from '../../../cms/search/v1/QueryCollectionRequest';
import type { QueryCollectionResponse as _cms_search_v1_QueryCollectionResponse, QueryCollectionResponse__Output as _cms_search_v1_QueryCollectionResponse__Output } from '../../../cms/search/v1/QueryCollectionResponse';
import type { ReindexProgress as _cms_search_v1_ReindexProgress, ReindexProgress__Output as _cms_search_v1_ReindexProgress__Output } from '../../../cms/search/v1/ReindexProgress';
import type { ReindexRequest as _cms_search_v1_ReindexRequest, ReindexRequest__Output as _cms_search_v1_ReindexRequest__Output } from '../../../cms/search/v1/ReindexRequest';
import type { TermsRequest as _cms_search_v1_TermsRequest, TermsRequest__Output as _cms_search_v1_TermsRequest__Output } from '../../../cms/search/v1/TermsRequest';
import type { TermsResponse as _cms_search_v1_TermsResponse, TermsResponse__Output as _cms_search_v1_TermsResponse__Output } from '../../../cms/search/v1/TermsResponse';

export interface SearchServiceClient extends grpc.Client {
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  
  QueryCollection(argument: _cms_search_v1_QueryCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  QueryCollection(argument: _cms_search_v1_QueryCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  QueryCollection(argument: _cms_search_v1_QueryCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  QueryCollection(argument: _cms_search_v1_QueryCollectionRequest, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  queryCollection(argument: _cms_search_v1_QueryCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  queryCollection(argument: _cms_search_v1_QueryCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  queryCollection(argument: _cms_search_v1_QueryCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  queryCollection(argument: _cms_search_v1_QueryCollectionRequest, callback: grpc.requestCallback<_cms_search_v1_QueryCollectionResponse__Output>): grpc.ClientUnaryCall;
  
  Reindex(argument: _cms_search_v1_ReindexRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_search_v1_ReindexProgress__Output>;
  Reindex(argument: _cms_search_v1_ReindexRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_search_v1_ReindexProgress__Output>;
  reindex(argument: _cms_search_v1_ReindexRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_search_v1_ReindexProgress__Output>;
  reindex(argument: _cms_search_v1_ReindexRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_search_v1_ReindexProgress__Output>;
  
  Terms(argument: _cms_search_v1_TermsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  Terms(argument: _cms_search_v1_TermsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  Terms(argument: _cms_search_v1_TermsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  Terms(argument: _cms_search_v1_TermsRequest, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  terms(argument: _cms_search_v1_TermsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  terms(argument: _cms_search_v1_TermsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  terms(argument: _cms_search_v1_TermsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  terms(argument: _cms_search_v1_TermsRequest, callback: grpc.requestCallback<_cms_search_v1_TermsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface SearchServiceHandlers extends grpc.UntypedServiceImplementation {
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  QueryCollection: grpc.handleUnaryCall<_cms_search_v1_QueryCollectionRequest__Output, _cms_search_v1_QueryCollectionResponse>;
  
  Reindex: grpc.handleServerStreamingCall<_cms_search_v1_ReindexRequest__Output, _cms_search_v1_ReindexProgress>;
  
  Terms: grpc.handleUnaryCall<_cms_search_v1_TermsRequest__Output, _cms_search_v1_TermsResponse>;
  
}

export interface SearchServiceDefinition extends grpc.ServiceDefinition {
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  QueryCollection: MethodDefinition<_cms_search_v1_QueryCollectionRequest, _cms_search_v1_QueryCollectionResponse, _cms_search_v1_QueryCollectionRequest__Output, _cms_search_v1_QueryCollectionResponse__Output>
  Reindex: MethodDefinition<_cms_search_v1_ReindexRequest, _cms_search_v1_ReindexProgress, _cms_search_v1_ReindexRequest__Output, _cms_search_v1_ReindexProgress__Output>
  Terms: MethodDefinition<_cms_search_v1_TermsRequest, _cms_search_v1_TermsResponse, _cms_search_v1_TermsRequest__Output, _cms_search_v1_TermsResponse__Output>
}
