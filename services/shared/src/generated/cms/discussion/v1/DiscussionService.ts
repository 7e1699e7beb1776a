// Original file: proto/cms/discussion/v1/discussion.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AwaitPublishedRequest as _cms_events_v1_AwaitPublishedRequest, AwaitPublishedRequest__Output as _cms_events_v1_AwaitPublishedRequest__Output } from '../../../cms/events/v1/AwaitPublishedRequest';
import type { CommentRecord as _cms_discussion_v1_CommentRecord, CommentRecord__Output as _cms_discussion_v1_CommentRecord__Output } from '../../../cms/discussion/v1/CommentRecord';
import type { Conversation as _cms_discussion_v1_Conversation, Conversation__Output as _cms_discussion_v1_Conversation__Output } from '../../../cms/discussion/v1/Conversation';
import type { ExportCommentsRequest as _cms_discussion_v1_ExportCommentsRequest, ExportCommentsRequest__Output as _cms_discussion_v1_ExportCommentsRequest__Output } from '../../../cms/discussion/v1/ExportCommentsRequest';
import type { GetCommentRequest as _cms_discussion_v1_GetCommentRequest, GetCommentRequest__Output as _cms_discussion_v1_GetCommentRequest__Output } from '../../../cms/discussion/v1/GetCommentRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { ImportCommentsRequest as _cms_discussion_v1_ImportCommentsRequest, ImportCommentsRequest__Output as _cms_discussion_v1_ImportCommentsRequest__Output } from '../../../cms/discussion/v1/ImportCommentsRequest';
import type { ImportCommentsResponse as _cms_discussion_v1_ImportCommentsResponse, ImportCommentsResponse__Output as _cms_discussion_v1_ImportCommentsResponse__Output } from '../../../cms/discussion/v1/ImportCommentsResponse';
import type { PublishBacklog as _cms_events_v1_PublishBacklog, PublishBacklog__Output as _cms_events_v1_PublishBacklog__Output } from '../../../cms/events/v1/PublishBacklog';
import type { RenderCommentsRequest as _cms_discussion_v1_RenderCommentsRequest, RenderCommentsRequest__Output as _cms_discussion_v1_RenderCommentsRequest__Output } from '../../../cms/discussion/v1/RenderCommentsRequest';
import type { RenderCommentsResponse as _cms_discussion_v1_RenderCommentsResponse, RenderCommentsResponse__Output as _cms_discussion_v1_RenderCommentsResponse__Output } from '../../../cms/discussion/v1/RenderCommentsResponse';
import type { ScanCommentsRequest as _cms_discussion_v1_ScanCommentsRequest, ScanCommentsRequest__Output as _cms_discussion_v1_ScanCommentsRequest__Output } from '../../../cms/discussion/v1/ScanCommentsRequest';

export interface DiscussionServiceClient extends grpc.Client {
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  
  ExportComments(argument: _cms_discussion_v1_ExportCommentsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_Conversation__Output>;
  ExportComments(argument: _cms_discussion_v1_ExportCommentsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_Conversation__Output>;
  exportComments(argument: _cms_discussion_v1_ExportCommentsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_Conversation__Output>;
  exportComments(argument: _cms_discussion_v1_ExportCommentsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_Conversation__Output>;
  
  GetComment(argument: _cms_discussion_v1_GetCommentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  GetComment(argument: _cms_discussion_v1_GetCommentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  GetComment(argument: _cms_discussion_v1_GetCommentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  GetComment(argument: _cms_discussion_v1_GetCommentRequest, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  getComment(argument: _cms_discussion_v1_GetCommentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  getComment(argument: _cms_discussion_v1_GetCommentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  getComment(argument: _cms_discussion_v1_GetCommentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  getComment(argument: _cms_discussion_v1_GetCommentRequest, callback: grpc.requestCallback<_cms_discussion_v1_CommentRecord__Output>): grpc.ClientUnaryCall;
  
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  
  ImportComments(argument: _cms_discussion_v1_ImportCommentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  ImportComments(argument: _cms_discussion_v1_ImportCommentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  ImportComments(argument: _cms_discussion_v1_ImportCommentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  ImportComments(argument: _cms_discussion_v1_ImportCommentsRequest, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  importComments(argument: _cms_discussion_v1_ImportCommentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  importComments(argument: _cms_discussion_v1_ImportCommentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  importComments(argument: _cms_discussion_v1_ImportCommentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  importComments(argument: _cms_discussion_v1_ImportCommentsRequest, callback: grpc.requestCallback<_cms_discussion_v1_ImportCommentsResponse__Output>): grpc.ClientUnaryCall;
  
  RenderComments(argument: _cms_discussion_v1_RenderCommentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  RenderComments(argument: _cms_discussion_v1_RenderCommentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  RenderComments(argument: _cms_discussion_v1_RenderCommentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  RenderComments(argument: _cms_discussion_v1_RenderCommentsRequest, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  renderComments(argument: _cms_discussion_v1_RenderCommentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  renderComments(argument: _cms_discussion_v1_RenderCommentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  renderComments(argument: _cms_discussion_v1_RenderCommentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  renderComments(argument: _cms_discussion_v1_RenderCommentsRequest, callback: grpc.requestCallback<_cms_discussion_v1_RenderCommentsResponse__Output>): grpc.ClientUnaryCall;
  
  ScanComments(argument: _cms_discussion_v1_ScanCommentsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_CommentRecord__Output>;
  ScanComments(argument: _cms_discussion_v1_ScanCommentsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_CommentRecord__Output>;
  scanComments(argument: _cms_discussion_v1_ScanCommentsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_CommentRecord__Output>;
  scanComments(argument: _cms_discussion_v1_ScanCommentsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_discussion_v1_CommentRecord__Output>;
  
}

export interface DiscussionServiceHandlers extends grpc.UntypedServiceImplementation {
  AwaitPublished: grpc.handleUnaryCall<_cms_events_v1_AwaitPublishedRequest__Output, _cms_events_v1_PublishBacklog>;
  
  ExportComments: grpc.handleServerStreamingCall<_cms_discussion_v1_ExportCommentsRequest__Output, _cms_discussion_v1_Conversation>;
  
  GetComment: grpc.handleUnaryCall<_cms_discussion_v1_GetCommentRequest__Output, _cms_discussion_v1_CommentRecord>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  ImportComments: grpc.handleUnaryCall<_cms_discussion_v1_ImportCommentsRequest__Output, _cms_discussion_v1_ImportCommentsResponse>;
  
  RenderComments: grpc.handleUnaryCall<_cms_discussion_v1_RenderCommentsRequest__Output, _cms_discussion_v1_RenderCommentsResponse>;
  
  ScanComments: grpc.handleServerStreamingCall<_cms_discussion_v1_ScanCommentsRequest__Output, _cms_discussion_v1_CommentRecord>;
  
}

export interface DiscussionServiceDefinition extends grpc.ServiceDefinition {
  AwaitPublished: MethodDefinition<_cms_events_v1_AwaitPublishedRequest, _cms_events_v1_PublishBacklog, _cms_events_v1_AwaitPublishedRequest__Output, _cms_events_v1_PublishBacklog__Output>
  ExportComments: MethodDefinition<_cms_discussion_v1_ExportCommentsRequest, _cms_discussion_v1_Conversation, _cms_discussion_v1_ExportCommentsRequest__Output, _cms_discussion_v1_Conversation__Output>
  GetComment: MethodDefinition<_cms_discussion_v1_GetCommentRequest, _cms_discussion_v1_CommentRecord, _cms_discussion_v1_GetCommentRequest__Output, _cms_discussion_v1_CommentRecord__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  ImportComments: MethodDefinition<_cms_discussion_v1_ImportCommentsRequest, _cms_discussion_v1_ImportCommentsResponse, _cms_discussion_v1_ImportCommentsRequest__Output, _cms_discussion_v1_ImportCommentsResponse__Output>
  RenderComments: MethodDefinition<_cms_discussion_v1_RenderCommentsRequest, _cms_discussion_v1_RenderCommentsResponse, _cms_discussion_v1_RenderCommentsRequest__Output, _cms_discussion_v1_RenderCommentsResponse__Output>
  ScanComments: MethodDefinition<_cms_discussion_v1_ScanCommentsRequest, _cms_discussion_v1_CommentRecord, _cms_discussion_v1_ScanCommentsRequest__Output, _cms_discussion_v1_CommentRecord__Output>
}
