import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ContextServiceClient as _cms_content_v1_ContextServiceClient, ContextServiceDefinition as _cms_content_v1_ContextServiceDefinition } from './cms/content/v1/ContextService';
import type { LocalRoleGrant as _cms_content_v1_LocalRoleGrant, LocalRoleGrant__Output as _cms_content_v1_LocalRoleGrant__Output } from './cms/content/v1/LocalRoleGrant';
import type { ResolveContextRequest as _cms_content_v1_ResolveContextRequest, ResolveContextRequest__Output as _cms_content_v1_ResolveContextRequest__Output } from './cms/content/v1/ResolveContextRequest';
import type { ResolvedContext as _cms_content_v1_ResolvedContext, ResolvedContext__Output as _cms_content_v1_ResolvedContext__Output } from './cms/content/v1/ResolvedContext';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    content: {
      v1: {
        ContextService: SubtypeConstructor<typeof grpc.Client, _cms_content_v1_ContextServiceClient> & { service: _cms_content_v1_ContextServiceDefinition }
        LocalRoleGrant: MessageTypeDefinition<_cms_content_v1_LocalRoleGrant, _cms_content_v1_LocalRoleGrant__Output>
        ResolveContextRequest: MessageTypeDefinition<_cms_content_v1_ResolveContextRequest, _cms_content_v1_ResolveContextRequest__Output>
        ResolvedContext: MessageTypeDefinition<_cms_content_v1_ResolvedContext, _cms_content_v1_ResolvedContext__Output>
      }
    }
  }
}

