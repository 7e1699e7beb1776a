import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { IdentityGroupRemoved as _cms_events_v1_IdentityGroupRemoved, IdentityGroupRemoved__Output as _cms_events_v1_IdentityGroupRemoved__Output } from './cms/events/v1/IdentityGroupRemoved';
import type { IdentityUserRemoved as _cms_events_v1_IdentityUserRemoved, IdentityUserRemoved__Output as _cms_events_v1_IdentityUserRemoved__Output } from './cms/events/v1/IdentityUserRemoved';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    events: {
      v1: {
        IdentityGroupRemoved: MessageTypeDefinition<_cms_events_v1_IdentityGroupRemoved, _cms_events_v1_IdentityGroupRemoved__Output>
        IdentityUserRemoved: MessageTypeDefinition<_cms_events_v1_IdentityUserRemoved, _cms_events_v1_IdentityUserRemoved__Output>
      }
    }
  }
}

