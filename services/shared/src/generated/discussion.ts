import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { CommentRecord as _cms_discussion_v1_CommentRecord, CommentRecord__Output as _cms_discussion_v1_CommentRecord__Output } from './cms/discussion/v1/CommentRecord';
import type { CommentRef as _cms_discussion_v1_CommentRef, CommentRef__Output as _cms_discussion_v1_CommentRef__Output } from './cms/discussion/v1/CommentRef';
import type { Conversation as _cms_discussion_v1_Conversation, Conversation__Output as _cms_discussion_v1_Conversation__Output } from './cms/discussion/v1/Conversation';
import type { DiscussionServiceClient as _cms_discussion_v1_DiscussionServiceClient, DiscussionServiceDefinition as _cms_discussion_v1_DiscussionServiceDefinition } from './cms/discussion/v1/DiscussionService';
import type { ExportCommentsRequest as _cms_discussion_v1_ExportCommentsRequest, ExportCommentsRequest__Output as _cms_discussion_v1_ExportCommentsRequest__Output } from './cms/discussion/v1/ExportCommentsRequest';
import type { GetCommentRequest as _cms_discussion_v1_GetCommentRequest, GetCommentRequest__Output as _cms_discussion_v1_GetCommentRequest__Output } from './cms/discussion/v1/GetCommentRequest';
import type { ImportCommentsRequest as _cms_discussion_v1_ImportCommentsRequest, ImportCommentsRequest__Output as _cms_discussion_v1_ImportCommentsRequest__Output } from './cms/discussion/v1/ImportCommentsRequest';
import type { ImportCommentsResponse as _cms_discussion_v1_ImportCommentsResponse, ImportCommentsResponse__Output as _cms_discussion_v1_ImportCommentsResponse__Output } from './cms/discussion/v1/ImportCommentsResponse';
import type { ImportedComment as _cms_discussion_v1_ImportedComment, ImportedComment__Output as _cms_discussion_v1_ImportedComment__Output } from './cms/discussion/v1/ImportedComment';
import type { RefusedComment as _cms_discussion_v1_RefusedComment, RefusedComment__Output as _cms_discussion_v1_RefusedComment__Output } from './cms/discussion/v1/RefusedComment';
import type { RenderCommentsRequest as _cms_discussion_v1_RenderCommentsRequest, RenderCommentsRequest__Output as _cms_discussion_v1_RenderCommentsRequest__Output } from './cms/discussion/v1/RenderCommentsRequest';
import type { RenderCommentsResponse as _cms_discussion_v1_RenderCommentsResponse, RenderCommentsResponse__Output as _cms_discussion_v1_RenderCommentsResponse__Output } from './cms/discussion/v1/RenderCommentsResponse';
import type { RenderedComment as _cms_discussion_v1_RenderedComment, RenderedComment__Output as _cms_discussion_v1_RenderedComment__Output } from './cms/discussion/v1/RenderedComment';
import type { ScanCommentsRequest as _cms_discussion_v1_ScanCommentsRequest, ScanCommentsRequest__Output as _cms_discussion_v1_ScanCommentsRequest__Output } from './cms/discussion/v1/ScanCommentsRequest';
import type { AwaitPublishedRequest as _cms_events_v1_AwaitPublishedRequest, AwaitPublishedRequest__Output as _cms_events_v1_AwaitPublishedRequest__Output } from './cms/events/v1/AwaitPublishedRequest';
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
    discussion: {
      v1: {
        CommentRecord: MessageTypeDefinition<_cms_discussion_v1_CommentRecord, _cms_discussion_v1_CommentRecord__Output>
        CommentRef: MessageTypeDefinition<_cms_discussion_v1_CommentRef, _cms_discussion_v1_CommentRef__Output>
        Conversation: MessageTypeDefinition<_cms_discussion_v1_Conversation, _cms_discussion_v1_Conversation__Output>
        DiscussionService: SubtypeConstructor<typeof grpc.Client, _cms_discussion_v1_DiscussionServiceClient> & { service: _cms_discussion_v1_DiscussionServiceDefinition }
        ExportCommentsRequest: MessageTypeDefinition<_cms_discussion_v1_ExportCommentsRequest, _cms_discussion_v1_ExportCommentsRequest__Output>
        GetCommentRequest: MessageTypeDefinition<_cms_discussion_v1_GetCommentRequest, _cms_discussion_v1_GetCommentRequest__Output>
        ImportCommentsRequest: MessageTypeDefinition<_cms_discussion_v1_ImportCommentsRequest, _cms_discussion_v1_ImportCommentsRequest__Output>
        ImportCommentsResponse: MessageTypeDefinition<_cms_discussion_v1_ImportCommentsResponse, _cms_discussion_v1_ImportCommentsResponse__Output>
        ImportedComment: MessageTypeDefinition<_cms_discussion_v1_ImportedComment, _cms_discussion_v1_ImportedComment__Output>
        RefusedComment: MessageTypeDefinition<_cms_discussion_v1_RefusedComment, _cms_discussion_v1_RefusedComment__Output>
        RenderCommentsRequest: MessageTypeDefinition<_cms_discussion_v1_RenderCommentsRequest, _cms_discussion_v1_RenderCommentsRequest__Output>
        RenderCommentsResponse: MessageTypeDefinition<_cms_discussion_v1_RenderCommentsResponse, _cms_discussion_v1_RenderCommentsResponse__Output>
        RenderedComment: MessageTypeDefinition<_cms_discussion_v1_RenderedComment, _cms_discussion_v1_RenderedComment__Output>
        ScanCommentsRequest: MessageTypeDefinition<_cms_discussion_v1_ScanCommentsRequest, _cms_discussion_v1_ScanCommentsRequest__Output>
      }
    }
    events: {
      v1: {
        AwaitPublishedRequest: MessageTypeDefinition<_cms_events_v1_AwaitPublishedRequest, _cms_events_v1_AwaitPublishedRequest__Output>
        PublishBacklog: MessageTypeDefinition<_cms_events_v1_PublishBacklog, _cms_events_v1_PublishBacklog__Output>
      }
    }
  }
}

