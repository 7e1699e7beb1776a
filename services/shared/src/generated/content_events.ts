import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ContentAdded as _cms_events_v1_ContentAdded, ContentAdded__Output as _cms_events_v1_ContentAdded__Output } from './cms/events/v1/ContentAdded';
import type { ContentModified as _cms_events_v1_ContentModified, ContentModified__Output as _cms_events_v1_ContentModified__Output } from './cms/events/v1/ContentModified';
import type { ContentMoved as _cms_events_v1_ContentMoved, ContentMoved__Output as _cms_events_v1_ContentMoved__Output } from './cms/events/v1/ContentMoved';
import type { ContentOrdered as _cms_events_v1_ContentOrdered, ContentOrdered__Output as _cms_events_v1_ContentOrdered__Output } from './cms/events/v1/ContentOrdered';
import type { ContentRemoved as _cms_events_v1_ContentRemoved, ContentRemoved__Output as _cms_events_v1_ContentRemoved__Output } from './cms/events/v1/ContentRemoved';
import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from './cms/events/v1/ContentSnapshot';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    events: {
      v1: {
        ContentAdded: MessageTypeDefinition<_cms_events_v1_ContentAdded, _cms_events_v1_ContentAdded__Output>
        ContentModified: MessageTypeDefinition<_cms_events_v1_ContentModified, _cms_events_v1_ContentModified__Output>
        ContentMoved: MessageTypeDefinition<_cms_events_v1_ContentMoved, _cms_events_v1_ContentMoved__Output>
        ContentOrdered: MessageTypeDefinition<_cms_events_v1_ContentOrdered, _cms_events_v1_ContentOrdered__Output>
        ContentRemoved: MessageTypeDefinition<_cms_events_v1_ContentRemoved, _cms_events_v1_ContentRemoved__Output>
        ContentSnapshot: MessageTypeDefinition<_cms_events_v1_ContentSnapshot, _cms_events_v1_ContentSnapshot__Output>
      }
    }
  }
}

