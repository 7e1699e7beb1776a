// Original file: proto/cms/config/v1/config.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetRecordsRequest as _cms_config_v1_GetRecordsRequest, GetRecordsRequest__Output as _cms_config_v1_GetRecordsRequest__Output } from '../../../cms/config/v1/GetRecordsRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { RecordValues as _cms_config_v1_RecordValues, RecordValues__Output as _cms_config_v1_RecordValues__Output } from '../../../cms/config/v1/RecordValues';
import type { RecordsChanged as _cms_config_v1_RecordsChanged, RecordsChanged__Output as _cms_config_v1_RecordsChanged__Output } from '../../../cms/config/v1/RecordsChanged';
import type { WatchRecordsRequest as _cms_config_v1_WatchRecordsRequest, WatchRecordsRequest__Output as _cms_config_v1_WatchRecordsRequest__Output } from '../../../cms/config/v1/WatchRecordsRequest';

export interface ConfigServiceClient extends grpc.Client {
  GetRecords(argument: _cms_config_v1_GetRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  GetRecords(argument: _cms_config_v1_GetRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  GetRecords(argument: _cms_config_v1_GetRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  GetRecords(argument: _cms_config_v1_GetRecordsRequest, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  getRecords(argument: _cms_config_v1_GetRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  getRecords(argument: _cms_config_v1_GetRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  getRecords(argument: _cms_config_v1_GetRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  getRecords(argument: _cms_config_v1_GetRecordsRequest, callback: grpc.requestCallback<_cms_config_v1_RecordValues__Output>): grpc.ClientUnaryCall;
  
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  Handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  handle(argument: _cms_common_v1_HttpRequest, callback: grpc.requestCallback<_cms_common_v1_HttpResponse__Output>): grpc.ClientUnaryCall;
  
  WatchRecords(argument: _cms_config_v1_WatchRecordsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  WatchRecords(argument: _cms_config_v1_WatchRecordsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  watchRecords(argument: _cms_config_v1_WatchRecordsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  watchRecords(argument: _cms_config_v1_WatchRecordsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  
}

export interface ConfigServiceHandlers extends grpc.UntypedServiceImplementation {
  GetRecords: grpc.handleUnaryCall<_cms_config_v1_GetRecordsRequest__Output, _cms_config_v1_RecordValues>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  WatchRecords: grpc.handleServerStreamingCall<_cms_config_v1_WatchRecordsRequest__Output, _cms_config_v1_RecordsChanged>;
  
}

export interface ConfigServiceDefinition extends grpc.ServiceDefinition {
  GetRecords: MethodDefinition<_cms_config_v1_GetRecordsRequest, _cms_config_v1_RecordValues, _cms_config_v1_GetRecordsRequest__Output, _cms_config_v1_RecordValues__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  WatchRecords: MethodDefinition<_cms_config_v1_WatchRecordsRequest, _cms_config_v1_RecordsChanged, _cms_config_v1_WatchRecordsRequest__Output, _cms_config_v1_RecordsChanged__Output>
}
