// Original file: proto/cms/config/v1/config.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ChangeSchemaRequest as _cms_config_v1_ChangeSchemaRequest, ChangeSchemaRequest__Output as _cms_config_v1_ChangeSchemaRequest__Output } from '../../../cms/config/v1/ChangeSchemaRequest';
import type { ChangeSchemaResult as _cms_config_v1_ChangeSchemaResult, ChangeSchemaResult__Output as _cms_config_v1_ChangeSchemaResult__Output } from '../../../cms/config/v1/ChangeSchemaResult';
import type { GetRecordsRequest as _cms_config_v1_GetRecordsRequest, GetRecordsRequest__Output as _cms_config_v1_GetRecordsRequest__Output } from '../../../cms/config/v1/GetRecordsRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { ListTypesRequest as _cms_config_v1_ListTypesRequest, ListTypesRequest__Output as _cms_config_v1_ListTypesRequest__Output } from '../../../cms/config/v1/ListTypesRequest';
import type { RecordValues as _cms_config_v1_RecordValues, RecordValues__Output as _cms_config_v1_RecordValues__Output } from '../../../cms/config/v1/RecordValues';
import type { RecordsChanged as _cms_config_v1_RecordsChanged, RecordsChanged__Output as _cms_config_v1_RecordsChanged__Output } from '../../../cms/config/v1/RecordsChanged';
import type { TypeDefinitions as _cms_config_v1_TypeDefinitions, TypeDefinitions__Output as _cms_config_v1_TypeDefinitions__Output } from '../../../cms/config/v1/TypeDefinitions';
import type { TypesChanged as _cms_config_v1_TypesChanged, TypesChanged__Output as _cms_config_v1_TypesChanged__Output } from '../../../cms/config/v1/TypesChanged';
import type { WatchRecordsRequest as _cms_config_v1_WatchRecordsRequest, WatchRecordsRequest__Output as _cms_config_v1_WatchRecordsRequest__Output } from '../../../cms/config/v1/WatchRecordsRequest';
import type { WatchTypesRequest as _cms_config_v1_WatchTypesRequest, WatchTypesRequest__Output as _cms_config_v1_WatchTypesRequest__Output } from '../../../cms/config/v1/WatchTypesRequest';

export interface ConfigServiceClient extends grpc.Client {
  ChangeSchema(argument: _cms_config_v1_ChangeSchemaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  ChangeSchema(argument: _cms_config_v1_ChangeSchemaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  ChangeSchema(argument: _cms_config_v1_ChangeSchemaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  ChangeSchema(argument: _cms_config_v1_ChangeSchemaRequest, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  changeSchema(argument: _cms_config_v1_ChangeSchemaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  changeSchema(argument: _cms_config_v1_ChangeSchemaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  changeSchema(argument: _cms_config_v1_ChangeSchemaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  changeSchema(argument: _cms_config_v1_ChangeSchemaRequest, callback: grpc.requestCallback<_cms_config_v1_ChangeSchemaResult__Output>): grpc.ClientUnaryCall;
  
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
  
  ListTypes(argument: _cms_config_v1_ListTypesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  ListTypes(argument: _cms_config_v1_ListTypesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  ListTypes(argument: _cms_config_v1_ListTypesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  ListTypes(argument: _cms_config_v1_ListTypesRequest, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  listTypes(argument: _cms_config_v1_ListTypesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  listTypes(argument: _cms_config_v1_ListTypesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  listTypes(argument: _cms_config_v1_ListTypesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  listTypes(argument: _cms_config_v1_ListTypesRequest, callback: grpc.requestCallback<_cms_config_v1_TypeDefinitions__Output>): grpc.ClientUnaryCall;
  
  WatchRecords(argument: _cms_config_v1_WatchRecordsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  WatchRecords(argument: _cms_config_v1_WatchRecordsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  watchRecords(argument: _cms_config_v1_WatchRecordsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  watchRecords(argument: _cms_config_v1_WatchRecordsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_RecordsChanged__Output>;
  
  WatchTypes(argument: _cms_config_v1_WatchTypesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_TypesChanged__Output>;
  WatchTypes(argument: _cms_config_v1_WatchTypesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_TypesChanged__Output>;
  watchTypes(argument: _cms_config_v1_WatchTypesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_TypesChanged__Output>;
  watchTypes(argument: _cms_config_v1_WatchTypesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_config_v1_TypesChanged__Output>;
  
}

export interface ConfigServiceHandlers extends grpc.UntypedServiceImplementation {
  ChangeSchema: grpc.handleUnaryCall<_cms_config_v1_ChangeSchemaRequest__Output, _cms_config_v1_ChangeSchemaResult>;
  
  GetRecords: grpc.handleUnaryCall<_cms_config_v1_GetRecordsRequest__Output, _cms_config_v1_RecordValues>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  ListTypes: grpc.handleUnaryCall<_cms_config_v1_ListTypesRequest__Output, _cms_config_v1_TypeDefinitions>;
  
  WatchRecords: grpc.handleServerStreamingCall<_cms_config_v1_WatchRecordsRequest__Output, _cms_config_v1_RecordsChanged>;
  
  WatchTypes: grpc.handleServerStreamingCall<_cms_config_v1_WatchTypesRequest__Output, _cms_config_v1_TypesChanged>;
  
}

export interface ConfigServiceDefinition extends grpc.ServiceDefinition {
  ChangeSchema: MethodDefinition<_cms_config_v1_ChangeSchemaRequest, _cms_config_v1_ChangeSchemaResult, _cms_config_v1_ChangeSchemaRequest__Output, _cms_config_v1_ChangeSchemaResult__Output>
  GetRecords: MethodDefinition<_cms_config_v1_GetRecordsRequest, _cms_config_v1_RecordValues, _cms_config_v1_GetRecordsRequest__Output, _cms_config_v1_RecordValues__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  ListTypes: MethodDefinition<_cms_config_v1_ListTypesRequest, _cms_config_v1_TypeDefinitions, _cms_config_v1_ListTypesRequest__Output, _cms_config_v1_TypeDefinitions__Output>
  WatchRecords: MethodDefinition<_cms_config_v1_WatchRecordsRequest, _cms_config_v1_RecordsChanged, _cms_config_v1_WatchRecordsRequest__Output, _cms_config_v1_RecordsChanged__Output>
  WatchTypes: MethodDefinition<_cms_config_v1_WatchTypesRequest, _cms_config_v1_TypesChanged, _cms_config_v1_WatchTypesRequest__Output, _cms_config_v1_TypesChanged__Output>
}
