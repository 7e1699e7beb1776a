import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { ApplyRuleActionRequest as _cms_content_v1_ApplyRuleActionRequest, ApplyRuleActionRequest__Output as _cms_content_v1_ApplyRuleActionRequest__Output } from './cms/content/v1/ApplyRuleActionRequest';
import type { ApplyRuleActionResponse as _cms_content_v1_ApplyRuleActionResponse, ApplyRuleActionResponse__Output as _cms_content_v1_ApplyRuleActionResponse__Output } from './cms/content/v1/ApplyRuleActionResponse';
import type { ContentServiceClient as _cms_content_v1_ContentServiceClient, ContentServiceDefinition as _cms_content_v1_ContentServiceDefinition } from './cms/content/v1/ContentService';
import type { GetByPathRequest as _cms_content_v1_GetByPathRequest, GetByPathRequest__Output as _cms_content_v1_GetByPathRequest__Output } from './cms/content/v1/GetByPathRequest';
import type { GetByUidRequest as _cms_content_v1_GetByUidRequest, GetByUidRequest__Output as _cms_content_v1_GetByUidRequest__Output } from './cms/content/v1/GetByUidRequest';
import type { RenderManyRequest as _cms_content_v1_RenderManyRequest, RenderManyRequest__Output as _cms_content_v1_RenderManyRequest__Output } from './cms/content/v1/RenderManyRequest';
import type { RenderManyResponse as _cms_content_v1_RenderManyResponse, RenderManyResponse__Output as _cms_content_v1_RenderManyResponse__Output } from './cms/content/v1/RenderManyResponse';
import type { RenderedObject as _cms_content_v1_RenderedObject, RenderedObject__Output as _cms_content_v1_RenderedObject__Output } from './cms/content/v1/RenderedObject';
import type { ScanRequest as _cms_content_v1_ScanRequest, ScanRequest__Output as _cms_content_v1_ScanRequest__Output } from './cms/content/v1/ScanRequest';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from './cms/events/v1/ContentSnapshot';

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
        ContentService: SubtypeConstructor<typeof grpc.Client, _cms_content_v1_ContentServiceClient> & { service: _cms_content_v1_ContentServiceDefinition }
        GetByPathRequest: MessageTypeDefinition<_cms_content_v1_GetByPathRequest, _cms_content_v1_GetByPathRequest__Output>
        GetByUidRequest: MessageTypeDefinition<_cms_content_v1_GetByUidRequest, _cms_content_v1_GetByUidRequest__Output>
        RenderManyRequest: MessageTypeDefinition<_cms_content_v1_RenderManyRequest, _cms_content_v1_RenderManyRequest__Output>
        RenderManyResponse: MessageTypeDefinition<_cms_content_v1_RenderManyResponse, _cms_content_v1_RenderManyResponse__Output>
        RenderedObject: MessageTypeDefinition<_cms_content_v1_RenderedObject, _cms_content_v1_RenderedObject__Output>
        ScanRequest: MessageTypeDefinition<_cms_content_v1_ScanRequest, _cms_content_v1_ScanRequest__Output>
      }
    }
    events: {
      v1: {
        ContentSnapshot: MessageTypeDefinition<_cms_events_v1_ContentSnapshot, _cms_events_v1_ContentSnapshot__Output>
      }
    }
  }
}

