// Original file: proto/cms/content/v1/content.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApplyRuleActionRequest as _cms_content_v1_ApplyRuleActionRequest, ApplyRuleActionRequest__Output as _cms_content_v1_ApplyRuleActionRequest__Output } from '../../../cms/content/v1/ApplyRuleActionRequest';
import type { ApplyRuleActionResponse as _cms_content_v1_ApplyRuleActionResponse, ApplyRuleActionResponse__Output as _cms_content_v1_ApplyRuleActionResponse__Output } from '../../../cms/content/v1/ApplyRuleActionResponse';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from '../../../cms/events/v1/ContentSnapshot';
import type { GetByPathRequest as _cms_content_v1_GetByPathRequest, GetByPathRequest__Output as _cms_content_v1_GetByPathRequest__Output } from '../../../cms/content/v1/GetByPathRequest';
import type { GetByUidRequest as _cms_content_v1_GetByUidRequest, GetByUidRequest__Output as _cms_content_v1_GetByUidRequest__Output } from '../../../cms/content/v1/GetByUidRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { RenderManyRequest as _cms_content_v1_RenderManyRequest, RenderManyRequest__Output as _cms_content_v1_RenderManyRequest__Output } from '../../../cms/content/v1/RenderManyRequest';
import type { RenderManyResponse as _cms_content_v1_RenderManyResponse, RenderManyResponse__Output as _cms_content_v1_RenderManyResponse__Output } from '../../../cms/content/v1/RenderManyResponse';
import type { ScanRequest as _cms_content_v1_ScanRequest, ScanRequest__Output as _cms_content_v1_ScanRequest__Output } from '../../../cms/content/v1/ScanRequest';

export interface ContentServiceClient extends grpc.Client {
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  
  GetByPath(argument: _cms_content_v1_GetByPathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByPath(argument: _cms_content_v1_GetByPathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByPath(argument: _cms_content_v1_GetByPathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByPath(argument: _cms_content_v1_GetByPathRequest, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByPath(argument: _cms_content_v1_GetByPathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByPath(argument: _cms_content_v1_GetByPathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByPath(argument: _cms_content_v1_GetByPathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByPath(argument: _cms_content_v1_GetByPathRequest, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  
  GetByUid(argument: _cms_content_v1_GetByUidRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByUid(argument: _cms_content_v1_GetByUidRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByUid(argument: _cms_content_v1_GetByUidRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  GetByUid(argument: _cms_content_v1_GetByUidRequest, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByUid(argument: _cms_content_v1_GetByUidRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByUid(argument: _cms_content_v1_GetByUidRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByUid(argument: _cms_content_v1_GetByUidRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  getByUid(argument: _cms_content_v1_GetByUidRequest, callback: grpc.requestCallback<_cms_events_v1_ContentSnapshot__Output>): grpc.ClientUnaryCall;
  
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  
  RenderMany(argument: _cms_content_v1_RenderManyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  RenderMany(argument: _cms_content_v1_RenderManyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  RenderMany(argument: _cms_content_v1_RenderManyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  RenderMany(argument: _cms_content_v1_RenderManyRequest, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  renderMany(argument: _cms_content_v1_RenderManyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  renderMany(argument: _cms_content_v1_RenderManyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  renderMany(argument: _cms_content_v1_RenderManyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  renderMany(argument: _cms_content_v1_RenderManyRequest, callback: grpc.requestCallback<_cms_content_v1_RenderManyResponse__Output>): grpc.ClientUnaryCall;
  
  Scan(argument: _cms_content_v1_ScanRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_events_v1_ContentSnapshot__Output>;
  Scan(argument: _cms_content_v1_ScanRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_events_v1_ContentSnapshot__Output>;
  scan(argument: _cms_content_v1_ScanRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_events_v1_ContentSnapshot__Output>;
  scan(argument: _cms_content_v1_ScanRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_events_v1_ContentSnapshot__Output>;
  
}

export interface ContentServiceHandlers extends grpc.UntypedServiceImplementation {
  ApplyRuleAction: grpc.handleUnaryCall<_cms_content_v1_ApplyRuleActionRequest__Output, _cms_content_v1_ApplyRuleActionResponse>;
  
  GetByPath: grpc.handleUnaryCall<_cms_content_v1_GetByPathRequest__Output, _cms_events_v1_ContentSnapshot>;
  
  GetByUid: grpc.handleUnaryCall<_cms_content_v1_GetByUidRequest__Output, _cms_events_v1_ContentSnapshot>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  RenderMany: grpc.handleUnaryCall<_cms_content_v1_RenderManyRequest__Output, _cms_content_v1_RenderManyResponse>;
  
  Scan: grpc.handleServerStreamingCall<_cms_content_v1_ScanRequest__Output, _cms_events_v1_ContentSnapshot>;
  
}

export interface ContentServiceDefinition extends grpc.ServiceDefinition {
  ApplyRuleAction: MethodDefinition<_cms_content_v1_ApplyRuleActionRequest, _cms_content_v1_ApplyRuleActionResponse, _cms_content_v1_ApplyRuleActionRequest__Output, _cms_content_v1_ApplyRuleActionResponse__Output>
  GetByPath: MethodDefinition<_cms_content_v1_GetByPathRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_GetByPathRequest__Output, _cms_events_v1_ContentSnapshot__Output>
  GetByUid: MethodDefinition<_cms_content_v1_GetByUidRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_GetByUidRequest__Output, _cms_events_v1_ContentSnapshot__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  RenderMany: MethodDefinition<_cms_content_v1_RenderManyRequest, _cms_content_v1_RenderManyResponse, _cms_content_v1_RenderManyRequest__Output, _cms_content_v1_RenderManyResponse__Output>
  Scan: MethodDefinition<_cms_content_v1_ScanRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_ScanRequest__Output, _cms_events_v1_ContentSnapshot__Output>
}
