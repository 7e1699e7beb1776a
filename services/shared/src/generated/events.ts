import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CommentAdded as _cms_events_v1_CommentAdded, CommentAdded__Output as _cms_events_v1_CommentAdded__Output } from './cms/events/v1/CommentAdded';
import type { CommentModified as _cms_events_v1_CommentModified, CommentModified__Output as _cms_events_v1_CommentModified__Output } from './cms/events/v1/CommentModified';
import type { CommentPublished as _cms_events_v1_CommentPublished, CommentPublished__Output as _cms_events_v1_CommentPublished__Output } from './cms/events/v1/CommentPublished';
import type { CommentRemoved as _cms_events_v1_CommentRemoved, CommentRemoved__Output as _cms_events_v1_CommentRemoved__Output } from './cms/events/v1/CommentRemoved';
import type { ContentAdded as _cms_events_v1_ContentAdded, ContentAdded__Output as _cms_events_v1_ContentAdded__Output } from './cms/events/v1/ContentAdded';
import type { ContentModified as _cms_events_v1_ContentModified, ContentModified__Output as _cms_events_v1_ContentModified__Output } from './cms/events/v1/ContentModified';
import type { ContentMoved as _cms_events_v1_ContentMoved, ContentMoved__Output as _cms_events_v1_ContentMoved__Output } from './cms/events/v1/ContentMoved';
import type { ContentOrdered as _cms_events_v1_ContentOrdered, ContentOrdered__Output as _cms_events_v1_ContentOrdered__Output } from './cms/events/v1/ContentOrdered';
import type { ContentRemoved as _cms_events_v1_ContentRemoved, ContentRemoved__Output as _cms_events_v1_ContentRemoved__Output } from './cms/events/v1/ContentRemoved';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from './cms/events/v1/ContentSnapshot';
import type { Envelope as _cms_events_v1_Envelope, Envelope__Output as _cms_events_v1_Envelope__Output } from './cms/events/v1/Envelope';
import type { IdentityGroupRemoved as _cms_events_v1_IdentityGroupRemoved, IdentityGroupRemoved__Output as _cms_events_v1_IdentityGroupRemoved__Output } from './cms/events/v1/IdentityGroupRemoved';
import type { IdentityUserRemoved as _cms_events_v1_IdentityUserRemoved, IdentityUserRemoved__Output as _cms_events_v1_IdentityUserRemoved__Output } from './cms/events/v1/IdentityUserRemoved';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    events: {
      v1: {
        CommentAdded: MessageTypeDefinition<_cms_events_v1_CommentAdded, _cms_events_v1_CommentAdded__Output>
        CommentModified: MessageTypeDefinition<_cms_events_v1_CommentModified, _cms_events_v1_CommentModified__Output>
        CommentPublished: MessageTypeDefinition<_cms_events_v1_CommentPublished, _cms_events_v1_CommentPublished__Output>
        CommentRemoved: MessageTypeDefinition<_cms_events_v1_CommentRemoved, _cms_events_v1_CommentRemoved__Output>
        ContentAdded: MessageTypeDefinition<_cms_events_v1_ContentAdded, _cms_events_v1_ContentAdded__Output>
        ContentModified: MessageTypeDefinition<_cms_events_v1_ContentModified, _cms_events_v1_ContentModified__Output>
        ContentMoved: MessageTypeDefinition<_cms_events_v1_ContentMoved, _cms_events_v1_ContentMoved__Output>
        ContentOrdered: MessageTypeDefinition<_cms_events_v1_ContentOrdered, _cms_events_v1_ContentOrdered__Output>
        ContentRemoved: MessageTypeDefinition<_cms_events_v1_ContentRemoved, _cms_events_v1_ContentRemoved__Output>
        ContentSnapshot: MessageTypeDefinition<_cms_events_v1_ContentSnapshot, _cms_events_v1_ContentSnapshot__Output>
        Envelope: MessageTypeDefinition<_cms_events_v1_Envelope, _cms_events_v1_Envelope__Output>
        IdentityGroupRemoved: MessageTypeDefinition<_cms_events_v1_IdentityGroupRemoved, _cms_events_v1_IdentityGroupRemoved__Output>
        IdentityUserRemoved: MessageTypeDefinition<_cms_events_v1_IdentityUserRemoved, _cms_events_v1_IdentityUserRemoved__Output>
      }
    }
  }
}

