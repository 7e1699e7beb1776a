import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AwaitPublishedRequest as _cms_events_v1_AwaitPublishedRequest, AwaitPublishedRequest__Output as _cms_events_v1_AwaitPublishedRequest__Output } from './cms/events/v1/AwaitPublishedRequest';
import type { PublishBacklog as _cms_events_v1_PublishBacklog, PublishBacklog__Output as _cms_events_v1_PublishBacklog__Output } from './cms/events/v1/PublishBacklog';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    events: {
      v1: {
        AwaitPublishedRequest: MessageTypeDefinition<_cms_events_v1_AwaitPublishedRequest, _cms_events_v1_AwaitPublishedRequest__Output>
        PublishBacklog: MessageTypeDefinition<_cms_events_v1_PublishBacklog, _cms_events_v1_PublishBacklog__Output>
      }
    }
  }
}

