// Original file: proto/cms/content/v1/content.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApplyRuleActionRequest as _cms_content_v1_ApplyRuleActionRequest, ApplyRuleActionRequest__Output as _cms_content_v1_ApplyRuleActionRequest__Output } from '../../../cms/content/v1/ApplyRuleActionRequest';
import type { ApplyRuleActionResponse as _cms_content_v1_ApplyRuleActionResponse, ApplyRuleActionResponse__Output as _cms_content_v1_ApplyRuleActionResponse__Output } from '../../../cms/content/v1/ApplyRuleActionResponse';
import type { AwaitPublishedRequest as _cms_events_v1_AwaitPublishedRequest, AwaitPublishedRequest__Output as _cms_events_v1_AwaitPublishedRequest__Output } from '../../../cms/events/v1/AwaitPublishedRequest';
import type { ChangesAck as _cms_content_v1_ChangesAck, ChangesAck__Output as _cms_content_v1_ChangesAck__Output } from '../../../cms/content/v1/ChangesAck';
import type { ChangesPush as _cms_content_v1_ChangesPush, ChangesPush__Output as _cms_content_v1_ChangesPush__Output } from '../../../cms/content/v1/ChangesPush';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from '../../../cms/events/v1/ContentSnapshot';
import type { CountByTypeRequest as _cms_content_v1_CountByTypeRequest, CountByTypeRequest__Output as _cms_content_v1_CountByTypeRequest__Output } from '../../../cms/content/v1/CountByTypeRequest';
import type { CountObjectsRequest as _cms_content_v1_CountObjectsRequest, CountObjectsRequest__Output as _cms_content_v1_CountObjectsRequest__Output } from '../../../cms/content/v1/CountObjectsRequest';
import type { CountObjectsResponse as _cms_content_v1_CountObjectsResponse, CountObjectsResponse__Output as _cms_content_v1_CountObjectsResponse__Output } from '../../../cms/content/v1/CountObjectsResponse';
import type { EnsureLanguageRootsRequest as _cms_content_v1_EnsureLanguageRootsRequest, EnsureLanguageRootsRequest__Output as _cms_content_v1_EnsureLanguageRootsRequest__Output } from '../../../cms/content/v1/EnsureLanguageRootsRequest';
import type { EnsureLanguageRootsResponse as _cms_content_v1_EnsureLanguageRootsResponse, EnsureLanguageRootsResponse__Output as _cms_content_v1_EnsureLanguageRootsResponse__Output } from '../../../cms/content/v1/EnsureLanguageRootsResponse';
import type { ExportObjectsRequest as _cms_content_v1_ExportObjectsRequest, ExportObjectsRequest__Output as _cms_content_v1_ExportObjectsRequest__Output } from '../../../cms/content/v1/ExportObjectsRequest';
import type { ExportedObject as _cms_content_v1_ExportedObject, ExportedObject__Output as _cms_content_v1_ExportedObject__Output } from '../../../cms/content/v1/ExportedObject';
import type { GetByPathRequest as _cms_content_v1_GetByPathRequest, GetByPathRequest__Output as _cms_content_v1_GetByPathRequest__Output } from '../../../cms/content/v1/GetByPathRequest';
import type { GetByUidRequest as _cms_content_v1_GetByUidRequest, GetByUidRequest__Output as _cms_content_v1_GetByUidRequest__Output } from '../../../cms/content/v1/GetByUidRequest';
import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from '../../../cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from '../../../cms/common/v1/HttpResponse';
import type { ImportObjectRequest as _cms_content_v1_ImportObjectRequest, ImportObjectRequest__Output as _cms_content_v1_ImportObjectRequest__Output } from '../../../cms/content/v1/ImportObjectRequest';
import type { ImportObjectResponse as _cms_content_v1_ImportObjectResponse, ImportObjectResponse__Output as _cms_content_v1_ImportObjectResponse__Output } from '../../../cms/content/v1/ImportObjectResponse';
import type { PublishBacklog as _cms_events_v1_PublishBacklog, PublishBacklog__Output as _cms_events_v1_PublishBacklog__Output } from '../../../cms/events/v1/PublishBacklog';
import type { RebuildTranslationsProgress as _cms_content_v1_RebuildTranslationsProgress, RebuildTranslationsProgress__Output as _cms_content_v1_RebuildTranslationsProgress__Output } from '../../../cms/content/v1/RebuildTranslationsProgress';
import type { RebuildTranslationsRequest as _cms_content_v1_RebuildTranslationsRequest, RebuildTranslationsRequest__Output as _cms_content_v1_RebuildTranslationsRequest__Output } from '../../../cms/content/v1/RebuildTranslationsRequest';
import type { RenderManyRequest as _cms_content_v1_RenderManyRequest, RenderManyRequest__Output as _cms_content_v1_RenderManyRequest__Output } from '../../../cms/content/v1/RenderManyRequest';
import type { RenderManyResponse as _cms_content_v1_RenderManyResponse, RenderManyResponse__Output as _cms_content_v1_RenderManyResponse__Output } from '../../../cms/content/v1/RenderManyResponse';
import type { ScanRequest as _cms_content_v1_ScanRequest, ScanRequest__Output as _cms_content_v1_ScanRequest__Output } from '../../../cms/content/v1/ScanRequest';
import type { SetSiteTitleRequest as _cms_content_v1_SetSiteTitleRequest, SetSiteTitleRequest__Output as _cms_content_v1_SetSiteTitleRequest__Output } from '../../../cms/content/v1/SetSiteTitleRequest';
import type { SetSiteTitleResponse as _cms_content_v1_SetSiteTitleResponse, SetSiteTitleResponse__Output as _cms_content_v1_SetSiteTitleResponse__Output } from '../../../cms/content/v1/SetSiteTitleResponse';
import type { TypeCounts as _cms_content_v1_TypeCounts, TypeCounts__Output as _cms_content_v1_TypeCounts__Output } from '../../../cms/content/v1/TypeCounts';

export interface ContentServiceClient extends grpc.Client {
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  ApplyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  applyRuleAction(argument: _cms_content_v1_ApplyRuleActionRequest, callback: grpc.requestCallback<_cms_content_v1_ApplyRuleActionResponse__Output>): grpc.ClientUnaryCall;
  
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  AwaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  awaitPublished(argument: _cms_events_v1_AwaitPublishedRequest, callback: grpc.requestCallback<_cms_events_v1_PublishBacklog__Output>): grpc.ClientUnaryCall;
  
  CountByType(argument: _cms_content_v1_CountByTypeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  CountByType(argument: _cms_content_v1_CountByTypeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  CountByType(argument: _cms_content_v1_CountByTypeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  CountByType(argument: _cms_content_v1_CountByTypeRequest, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  countByType(argument: _cms_content_v1_CountByTypeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  countByType(argument: _cms_content_v1_CountByTypeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  countByType(argument: _cms_content_v1_CountByTypeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  countByType(argument: _cms_content_v1_CountByTypeRequest, callback: grpc.requestCallback<_cms_content_v1_TypeCounts__Output>): grpc.ClientUnaryCall;
  
  CountObjects(argument: _cms_content_v1_CountObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  CountObjects(argument: _cms_content_v1_CountObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  CountObjects(argument: _cms_content_v1_CountObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  CountObjects(argument: _cms_content_v1_CountObjectsRequest, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  countObjects(argument: _cms_content_v1_CountObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  countObjects(argument: _cms_content_v1_CountObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  countObjects(argument: _cms_content_v1_CountObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  countObjects(argument: _cms_content_v1_CountObjectsRequest, callback: grpc.requestCallback<_cms_content_v1_CountObjectsResponse__Output>): grpc.ClientUnaryCall;
  
  EnsureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  EnsureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  EnsureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  EnsureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  ensureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  ensureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  ensureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  ensureLanguageRoots(argument: _cms_content_v1_EnsureLanguageRootsRequest, callback: grpc.requestCallback<_cms_content_v1_EnsureLanguageRootsResponse__Output>): grpc.ClientUnaryCall;
  
  ExportObjects(argument: _cms_content_v1_ExportObjectsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_ExportedObject__Output>;
  ExportObjects(argument: _cms_content_v1_ExportObjectsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_ExportedObject__Output>;
  exportObjects(argument: _cms_content_v1_ExportObjectsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_ExportedObject__Output>;
  exportObjects(argument: _cms_content_v1_ExportObjectsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_ExportedObject__Output>;
  
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
  
  ImportObject(argument: _cms_content_v1_ImportObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  ImportObject(argument: _cms_content_v1_ImportObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  ImportObject(argument: _cms_content_v1_ImportObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  ImportObject(argument: _cms_content_v1_ImportObjectRequest, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  importObject(argument: _cms_content_v1_ImportObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  importObject(argument: _cms_content_v1_ImportObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  importObject(argument: _cms_content_v1_ImportObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  importObject(argument: _cms_content_v1_ImportObjectRequest, callback: grpc.requestCallback<_cms_content_v1_ImportObjectResponse__Output>): grpc.ClientUnaryCall;
  
  RebuildTranslations(argument: _cms_content_v1_RebuildTranslationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_RebuildTranslationsProgress__Output>;
  RebuildTranslations(argument: _cms_content_v1_RebuildTranslationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_RebuildTranslationsProgress__Output>;
  rebuildTranslations(argument: _cms_content_v1_RebuildTranslationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_RebuildTranslationsProgress__Output>;
  rebuildTranslations(argument: _cms_content_v1_RebuildTranslationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_cms_content_v1_RebuildTranslationsProgress__Output>;
  
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
  
  SetSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  SetSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  SetSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  SetSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  setSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  setSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  setSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  setSiteTitle(argument: _cms_content_v1_SetSiteTitleRequest, callback: grpc.requestCallback<_cms_content_v1_SetSiteTitleResponse__Output>): grpc.ClientUnaryCall;
  
  WatchChanges(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesPush__Output>;
  WatchChanges(options?: grpc.CallOptions): grpc.ClientDuplexStream<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesPush__Output>;
  watchChanges(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesPush__Output>;
  watchChanges(options?: grpc.CallOptions): grpc.ClientDuplexStream<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesPush__Output>;
  
}

export interface ContentServiceHandlers extends grpc.UntypedServiceImplementation {
  ApplyRuleAction: grpc.handleUnaryCall<_cms_content_v1_ApplyRuleActionRequest__Output, _cms_content_v1_ApplyRuleActionResponse>;
  
  AwaitPublished: grpc.handleUnaryCall<_cms_events_v1_AwaitPublishedRequest__Output, _cms_events_v1_PublishBacklog>;
  
  CountByType: grpc.handleUnaryCall<_cms_content_v1_CountByTypeRequest__Output, _cms_content_v1_TypeCounts>;
  
  CountObjects: grpc.handleUnaryCall<_cms_content_v1_CountObjectsRequest__Output, _cms_content_v1_CountObjectsResponse>;
  
  EnsureLanguageRoots: grpc.handleUnaryCall<_cms_content_v1_EnsureLanguageRootsRequest__Output, _cms_content_v1_EnsureLanguageRootsResponse>;
  
  ExportObjects: grpc.handleServerStreamingCall<_cms_content_v1_ExportObjectsRequest__Output, _cms_content_v1_ExportedObject>;
  
  GetByPath: grpc.handleUnaryCall<_cms_content_v1_GetByPathRequest__Output, _cms_events_v1_ContentSnapshot>;
  
  GetByUid: grpc.handleUnaryCall<_cms_content_v1_GetByUidRequest__Output, _cms_events_v1_ContentSnapshot>;
  
  Handle: grpc.handleUnaryCall<_cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse>;
  
  ImportObject: grpc.handleUnaryCall<_cms_content_v1_ImportObjectRequest__Output, _cms_content_v1_ImportObjectResponse>;
  
  RebuildTranslations: grpc.handleServerStreamingCall<_cms_content_v1_RebuildTranslationsRequest__Output, _cms_content_v1_RebuildTranslationsProgress>;
  
  RenderMany: grpc.handleUnaryCall<_cms_content_v1_RenderManyRequest__Output, _cms_content_v1_RenderManyResponse>;
  
  Scan: grpc.handleServerStreamingCall<_cms_content_v1_ScanRequest__Output, _cms_events_v1_ContentSnapshot>;
  
  SetSiteTitle: grpc.handleUnaryCall<_cms_content_v1_SetSiteTitleRequest__Output, _cms_content_v1_SetSiteTitleResponse>;
  
  WatchChanges: grpc.handleBidiStreamingCall<_cms_content_v1_ChangesAck__Output, _cms_content_v1_ChangesPush>;
  
}

export interface ContentServiceDefinition extends grpc.ServiceDefinition {
  ApplyRuleAction: MethodDefinition<_cms_content_v1_ApplyRuleActionRequest, _cms_content_v1_ApplyRuleActionResponse, _cms_content_v1_ApplyRuleActionRequest__Output, _cms_content_v1_ApplyRuleActionResponse__Output>
  AwaitPublished: MethodDefinition<_cms_events_v1_AwaitPublishedRequest, _cms_events_v1_PublishBacklog, _cms_events_v1_AwaitPublishedRequest__Output, _cms_events_v1_PublishBacklog__Output>
  CountByType: MethodDefinition<_cms_content_v1_CountByTypeRequest, _cms_content_v1_TypeCounts, _cms_content_v1_CountByTypeRequest__Output, _cms_content_v1_TypeCounts__Output>
  CountObjects: MethodDefinition<_cms_content_v1_CountObjectsRequest, _cms_content_v1_CountObjectsResponse, _cms_content_v1_CountObjectsRequest__Output, _cms_content_v1_CountObjectsResponse__Output>
  EnsureLanguageRoots: MethodDefinition<_cms_content_v1_EnsureLanguageRootsRequest, _cms_content_v1_EnsureLanguageRootsResponse, _cms_content_v1_EnsureLanguageRootsRequest__Output, _cms_content_v1_EnsureLanguageRootsResponse__Output>
  ExportObjects: MethodDefinition<_cms_content_v1_ExportObjectsRequest, _cms_content_v1_ExportedObject, _cms_content_v1_ExportObjectsRequest__Output, _cms_content_v1_ExportedObject__Output>
  GetByPath: MethodDefinition<_cms_content_v1_GetByPathRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_GetByPathRequest__Output, _cms_events_v1_ContentSnapshot__Output>
  GetByUid: MethodDefinition<_cms_content_v1_GetByUidRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_GetByUidRequest__Output, _cms_events_v1_ContentSnapshot__Output>
  Handle: MethodDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpResponse, _cms_common_v1_HttpRequest__Output, _cms_common_v1_HttpResponse__Output>
  ImportObject: MethodDefinition<_cms_content_v1_ImportObjectRequest, _cms_content_v1_ImportObjectResponse, _cms_content_v1_ImportObjectRequest__Output, _cms_content_v1_ImportObjectResponse__Output>
  RebuildTranslations: MethodDefinition<_cms_content_v1_RebuildTranslationsRequest, _cms_content_v1_RebuildTranslationsProgress, _cms_content_v1_RebuildTranslationsRequest__Output, _cms_content_v1_RebuildTranslationsProgress__Output>
  RenderMany: MethodDefinition<_cms_content_v1_RenderManyRequest, _cms_content_v1_RenderManyResponse, _cms_content_v1_RenderManyRequest__Output, _cms_content_v1_RenderManyResponse__Output>
  Scan: MethodDefinition<_cms_content_v1_ScanRequest, _cms_events_v1_ContentSnapshot, _cms_content_v1_ScanRequest__Output, _cms_events_v1_ContentSnapshot__Output>
  SetSiteTitle: MethodDefinition<_cms_content_v1_SetSiteTitleRequest, _cms_content_v1_SetSiteTitleResponse, _cms_content_v1_SetSiteTitleRequest__Output, _cms_content_v1_SetSiteTitleResponse__Output>
  WatchChanges: MethodDefinition<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesPush, _cms_content_v1_ChangesAck__Output, _cms_content_v1_ChangesPush__Output>
}
