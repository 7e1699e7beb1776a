import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { ApplyRuleActionRequest as _cms_content_v1_ApplyRuleActionRequest, ApplyRuleActionRequest__Output as _cms_content_v1_ApplyRuleActionRequest__Output } from './cms/content/v1/ApplyRuleActionRequest';
import type { ApplyRuleActionResponse as _cms_content_v1_ApplyRuleActionResponse, ApplyRuleActionResponse__Output as _cms_content_v1_ApplyRuleActionResponse__Output } from './cms/content/v1/ApplyRuleActionResponse';
import type { ChangesAck as _cms_content_v1_ChangesAck, ChangesAck__Output as _cms_content_v1_ChangesAck__Output } from './cms/content/v1/ChangesAck';
import type { ChangesPush as _cms_content_v1_ChangesPush, ChangesPush__Output as _cms_content_v1_ChangesPush__Output } from './cms/content/v1/ChangesPush';
import type { ContentReplica as _cms_content_v1_ContentReplica, ContentReplica__Output as _cms_content_v1_ContentReplica__Output } from './cms/content/v1/ContentReplica';
import type { ContentServiceClient as _cms_content_v1_ContentServiceClient, ContentServiceDefinition as _cms_content_v1_ContentServiceDefinition } from './cms/content/v1/ContentService';
import type { CountByTypeRequest as _cms_content_v1_CountByTypeRequest, CountByTypeRequest__Output as _cms_content_v1_CountByTypeRequest__Output } from './cms/content/v1/CountByTypeRequest';
import type { CountObjectsRequest as _cms_content_v1_CountObjectsRequest, CountObjectsRequest__Output as _cms_content_v1_CountObjectsRequest__Output } from './cms/content/v1/CountObjectsRequest';
import type { CountObjectsResponse as _cms_content_v1_CountObjectsResponse, CountObjectsResponse__Output as _cms_content_v1_CountObjectsResponse__Output } from './cms/content/v1/CountObjectsResponse';
import type { EnsureLanguageRootsRequest as _cms_content_v1_EnsureLanguageRootsRequest, EnsureLanguageRootsRequest__Output as _cms_content_v1_EnsureLanguageRootsRequest__Output } from './cms/content/v1/EnsureLanguageRootsRequest';
import type { EnsureLanguageRootsResponse as _cms_content_v1_EnsureLanguageRootsResponse, EnsureLanguageRootsResponse__Output as _cms_content_v1_EnsureLanguageRootsResponse__Output } from './cms/content/v1/EnsureLanguageRootsResponse';
import type { ExportObjectsRequest as _cms_content_v1_ExportObjectsRequest, ExportObjectsRequest__Output as _cms_content_v1_ExportObjectsRequest__Output } from './cms/content/v1/ExportObjectsRequest';
import type { ExportedObject as _cms_content_v1_ExportedObject, ExportedObject__Output as _cms_content_v1_ExportedObject__Output } from './cms/content/v1/ExportedObject';
import type { ExportedRelation as _cms_content_v1_ExportedRelation, ExportedRelation__Output as _cms_content_v1_ExportedRelation__Output } from './cms/content/v1/ExportedRelation';
import type { GetByPathRequest as _cms_content_v1_GetByPathRequest, GetByPathRequest__Output as _cms_content_v1_GetByPathRequest__Output } from './cms/content/v1/GetByPathRequest';
import type { GetByUidRequest as _cms_content_v1_GetByUidRequest, GetByUidRequest__Output as _cms_content_v1_GetByUidRequest__Output } from './cms/content/v1/GetByUidRequest';
import type { ImportBlob as _cms_content_v1_ImportBlob, ImportBlob__Output as _cms_content_v1_ImportBlob__Output } from './cms/content/v1/ImportBlob';
import type { ImportObjectRequest as _cms_content_v1_ImportObjectRequest, ImportObjectRequest__Output as _cms_content_v1_ImportObjectRequest__Output } from './cms/content/v1/ImportObjectRequest';
import type { ImportObjectResponse as _cms_content_v1_ImportObjectResponse, ImportObjectResponse__Output as _cms_content_v1_ImportObjectResponse__Output } from './cms/content/v1/ImportObjectResponse';
import type { NotCarried as _cms_content_v1_NotCarried, NotCarried__Output as _cms_content_v1_NotCarried__Output } from './cms/content/v1/NotCarried';
import type { RebuildTranslationsProgress as _cms_content_v1_RebuildTranslationsProgress, RebuildTranslationsProgress__Output as _cms_content_v1_RebuildTranslationsProgress__Output } from './cms/content/v1/RebuildTranslationsProgress';
import type { RebuildTranslationsRequest as _cms_content_v1_RebuildTranslationsRequest, RebuildTranslationsRequest__Output as _cms_content_v1_RebuildTranslationsRequest__Output } from './cms/content/v1/RebuildTranslationsRequest';
import type { RebuildTranslationsResponse as _cms_content_v1_RebuildTranslationsResponse, RebuildTranslationsResponse__Output as _cms_content_v1_RebuildTranslationsResponse__Output } from './cms/content/v1/RebuildTranslationsResponse';
import type { RenderManyRequest as _cms_content_v1_RenderManyRequest, RenderManyRequest__Output as _cms_content_v1_RenderManyRequest__Output } from './cms/content/v1/RenderManyRequest';
import type { RenderManyResponse as _cms_content_v1_RenderManyResponse, RenderManyResponse__Output as _cms_content_v1_RenderManyResponse__Output } from './cms/content/v1/RenderManyResponse';
import type { RenderedObject as _cms_content_v1_RenderedObject, RenderedObject__Output as _cms_content_v1_RenderedObject__Output } from './cms/content/v1/RenderedObject';
import type { ScanRequest as _cms_content_v1_ScanRequest, ScanRequest__Output as _cms_content_v1_ScanRequest__Output } from './cms/content/v1/ScanRequest';
import type { SetSiteTitleRequest as _cms_content_v1_SetSiteTitleRequest, SetSiteTitleRequest__Output as _cms_content_v1_SetSiteTitleRequest__Output } from './cms/content/v1/SetSiteTitleRequest';
import type { SetSiteTitleResponse as _cms_content_v1_SetSiteTitleResponse, SetSiteTitleResponse__Output as _cms_content_v1_SetSiteTitleResponse__Output } from './cms/content/v1/SetSiteTitleResponse';
import type { TypeCounts as _cms_content_v1_TypeCounts, TypeCounts__Output as _cms_content_v1_TypeCounts__Output } from './cms/content/v1/TypeCounts';
import type { AwaitPublishedRequest as _cms_events_v1_AwaitPublishedRequest, AwaitPublishedRequest__Output as _cms_events_v1_AwaitPublishedRequest__Output } from './cms/events/v1/AwaitPublishedRequest';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from './cms/events/v1/ContentSnapshot';
import type { PublishBacklog as _cms_events_v1_PublishBacklog, PublishBacklog__Output as _cms_events_v1_PublishBacklog__Output } from './cms/events/v1/PublishBacklog';

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
    content: {
      v1: {
        ApplyRuleActionRequest: MessageTypeDefinition<_cms_content_v1_ApplyRuleActionRequest, _cms_content_v1_ApplyRuleActionRequest__Output>
        ApplyRuleActionResponse: MessageTypeDefinition<_cms_content_v1_ApplyRuleActionResponse, _cms_content_v1_ApplyRuleActionResponse__Output>
        ChangesAck: MessageTypeDefinition<_cms_content_v1_ChangesAck, _cms_content_v1_ChangesAck__Output>
        ChangesPush: MessageTypeDefinition<_cms_content_v1_ChangesPush, _cms_content_v1_ChangesPush__Output>
        ContentReplica: MessageTypeDefinition<_cms_content_v1_ContentReplica, _cms_content_v1_ContentReplica__Output>
        ContentService: SubtypeConstructor<typeof grpc.Client, _cms_content_v1_ContentServiceClient> & { service: _cms_content_v1_ContentServiceDefinition }
        CountByTypeRequest: MessageTypeDefinition<_cms_content_v1_CountByTypeRequest, _cms_content_v1_CountByTypeRequest__Output>
        CountObjectsRequest: MessageTypeDefinition<_cms_content_v1_CountObjectsRequest, _cms_content_v1_CountObjectsRequest__Output>
        CountObjectsResponse: MessageTypeDefinition<_cms_content_v1_CountObjectsResponse, _cms_content_v1_CountObjectsResponse__Output>
        EnsureLanguageRootsRequest: MessageTypeDefinition<_cms_content_v1_EnsureLanguageRootsRequest, _cms_content_v1_EnsureLanguageRootsRequest__Output>
        EnsureLanguageRootsResponse: MessageTypeDefinition<_cms_content_v1_EnsureLanguageRootsResponse, _cms_content_v1_EnsureLanguageRootsResponse__Output>
        ExportObjectsRequest: MessageTypeDefinition<_cms_content_v1_ExportObjectsRequest, _cms_content_v1_ExportObjectsRequest__Output>
        ExportedObject: MessageTypeDefinition<_cms_content_v1_ExportedObject, _cms_content_v1_ExportedObject__Output>
        ExportedRelation: MessageTypeDefinition<_cms_content_v1_ExportedRelation, _cms_content_v1_ExportedRelation__Output>
        GetByPathRequest: MessageTypeDefinition<_cms_content_v1_GetByPathRequest, _cms_content_v1_GetByPathRequest__Output>
        GetByUidRequest: MessageTypeDefinition<_cms_content_v1_GetByUidRequest, _cms_content_v1_GetByUidRequest__Output>
        ImportBlob: MessageTypeDefinition<_cms_content_v1_ImportBlob, _cms_content_v1_ImportBlob__Output>
        ImportObjectRequest: MessageTypeDefinition<_cms_content_v1_ImportObjectRequest, _cms_content_v1_ImportObjectRequest__Output>
        ImportObjectResponse: MessageTypeDefinition<_cms_content_v1_ImportObjectResponse, _cms_content_v1_ImportObjectResponse__Output>
        NotCarried: MessageTypeDefinition<_cms_content_v1_NotCarried, _cms_content_v1_NotCarried__Output>
        RebuildTranslationsProgress: MessageTypeDefinition<_cms_content_v1_RebuildTranslationsProgress, _cms_content_v1_RebuildTranslationsProgress__Output>
        RebuildTranslationsRequest: MessageTypeDefinition<_cms_content_v1_RebuildTranslationsRequest, _cms_content_v1_RebuildTranslationsRequest__Output>
        RebuildTranslationsResponse: MessageTypeDefinition<_cms_content_v1_RebuildTranslationsResponse, _cms_content_v1_RebuildTranslationsResponse__Output>
        RenderManyRequest: MessageTypeDefinition<_cms_content_v1_RenderManyRequest, _cms_content_v1_RenderManyRequest__Output>
        RenderManyResponse: MessageTypeDefinition<_cms_content_v1_RenderManyResponse, _cms_content_v1_RenderManyResponse__Output>
        RenderedObject: MessageTypeDefinition<_cms_content_v1_RenderedObject, _cms_content_v1_RenderedObject__Output>
        ScanRequest: MessageTypeDefinition<_cms_content_v1_ScanRequest, _cms_content_v1_ScanRequest__Output>
        SetSiteTitleRequest: MessageTypeDefinition<_cms_content_v1_SetSiteTitleRequest, _cms_content_v1_SetSiteTitleRequest__Output>
        SetSiteTitleResponse: MessageTypeDefinition<_cms_content_v1_SetSiteTitleResponse, _cms_content_v1_SetSiteTitleResponse__Output>
        TypeCounts: MessageTypeDefinition<_cms_content_v1_TypeCounts, _cms_content_v1_TypeCounts__Output>
      }
    }
    events: {
      v1: {
        AwaitPublishedRequest: MessageTypeDefinition<_cms_events_v1_AwaitPublishedRequest, _cms_events_v1_AwaitPublishedRequest__Output>
        ContentSnapshot: MessageTypeDefinition<_cms_events_v1_ContentSnapshot, _cms_events_v1_ContentSnapshot__Output>
        PublishBacklog: MessageTypeDefinition<_cms_events_v1_PublishBacklog, _cms_events_v1_PublishBacklog__Output>
      }
    }
  }
}

