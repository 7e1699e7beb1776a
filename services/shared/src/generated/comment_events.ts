import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CommentAdded as _cms_events_v1_CommentAdded, CommentAdded__Output as _cms_events_v1_CommentAdded__Output } from './cms/events/v1/CommentAdded';
import type { CommentModified as _cms_events_v1_CommentModified, CommentModified__Output as _cms_events_v1_CommentModified__Output } from './cms/events/v1/CommentModified';
import type { CommentPublished as _cms_events_v1_CommentPublished, CommentPublished__Output as _cms_events_v1_CommentPublished__Output } from './cms/events/v1/CommentPublished';
import type { CommentRemoved as _cms_events_v1_CommentRemoved, CommentRemoved__Output as _cms_events_v1_CommentRemoved__Output } from './cms/events/v1/CommentRemoved';

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
      }
    }
  }
}

