import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { CollectionItem as _cms_search_v1_CollectionItem, CollectionItem__Output as _cms_search_v1_CollectionItem__Output } from './cms/search/v1/CollectionItem';
import type { QueryCollectionRequest as _cms_search_v1_QueryCollectionRequest, QueryCollectionRequest__Output as _cms_search_v1_QueryCollectionRequest__Output } from './cms/search/v1/QueryCollectionRequest';
import type { QueryCollectionResponse as _cms_search_v1_QueryCollectionResponse, QueryCollectionResponse__Output as _cms_search_v1_QueryCollectionResponse__Output } from './cms/search/v1/QueryCollectionResponse';
import type { ReindexProgress as _cms_search_v1_ReindexProgress, ReindexProgress__Output as _cms_search_v1_ReindexProgress__Output } from './cms/search/v1/ReindexProgress';
import type { ReindexRequest as _cms_search_v1_ReindexRequest, ReindexRequest__Output as _cms_search_v1_ReindexRequest__Output } from './cms/search/v1/ReindexRequest';
import type { ReindexResponse as _cms_search_v1_ReindexResponse, ReindexResponse__Output as _cms_search_v1_ReindexResponse__Output } from './cms/search/v1/ReindexResponse';
import type { SearchServiceClient as _cms_search_v1_SearchServiceClient, SearchServiceDefinition as _cms_search_v1_SearchServiceDefinition } from './cms/search/v1/SearchService';
import type { Term as _cms_search_v1_Term, Term__Output as _cms_search_v1_Term__Output } from './cms/search/v1/Term';
import type { TermsRequest as _cms_search_v1_TermsRequest, TermsRequest__Output as _cms_search_v1_TermsRequest__Output } from './cms/search/v1/TermsRequest';
import type { TermsResponse as _cms_search_v1_TermsResponse, TermsResponse__Output as _cms_search_v1_TermsResponse__Output } from './cms/search/v1/TermsResponse';

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
    search: {
      v1: {
        CollectionItem: MessageTypeDefinition<_cms_search_v1_CollectionItem, _cms_search_v1_CollectionItem__Output>
        QueryCollectionRequest: MessageTypeDefinition<_cms_search_v1_QueryCollectionRequest, _cms_search_v1_QueryCollectionRequest__Output>
        QueryCollectionResponse: MessageTypeDefinition<_cms_search_v1_QueryCollectionResponse, _cms_search_v1_QueryCollectionResponse__Output>
        ReindexProgress: MessageTypeDefinition<_cms_search_v1_ReindexProgress, _cms_search_v1_ReindexProgress__Output>
        ReindexRequest: MessageTypeDefinition<_cms_search_v1_ReindexRequest, _cms_search_v1_ReindexRequest__Output>
        ReindexResponse: MessageTypeDefinition<_cms_search_v1_ReindexResponse, _cms_search_v1_ReindexResponse__Output>
        SearchService: SubtypeConstructor<typeof grpc.Client, _cms_search_v1_SearchServiceClient> & { service: _cms_search_v1_SearchServiceDefinition }
        Term: MessageTypeDefinition<_cms_search_v1_Term, _cms_search_v1_Term__Output>
        TermsRequest: MessageTypeDefinition<_cms_search_v1_TermsRequest, _cms_search_v1_TermsRequest__Output>
        TermsResponse: MessageTypeDefinition<_cms_search_v1_TermsResponse, _cms_search_v1_TermsResponse__Output>
      }
    }
  }
}

