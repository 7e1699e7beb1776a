import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ContentSnapshot as _cms_events_v1_ContentSnapshot, ContentSnapshot__Output as _cms_events_v1_ContentSnapshot__Output } from './cms/events/v1/ContentSnapshot';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    events: {
      v1: {
        ContentSnapshot: MessageTypeDefinition<_cms_events_v1_ContentSnapshot, _cms_events_v1_ContentSnapshot__Output>
      }
    }
  }
}

