import { callUnary, createClient, protos, type IdentityServiceClient, type SearchServiceClient } from '@cms/shared';
import type { CatalogTerms, PrincipalTerms } from '../domain/vocabularies';

/** The owners of vocabulary terms: the catalog (`SearchService.Terms`) and identity (`SearchPrincipals`). */
export function vocabularyTerms(
  addresses: { search: string; identity: string },
  timeoutMs: number,
  maxMessageBytes: number,
): { catalog: CatalogTerms; principals: PrincipalTerms; close(): void } {
  // Made on first use: the clients connect lazily, and a service that never serves a vocabulary opens none.
  let search: SearchServiceClient | undefined;
  let identity: IdentityServiceClient | undefined;
  const searchClient = () =>
    (search ??= createClient(protos().search.SearchService, addresses.search, maxMessageBytes));
  const identityClient = () =>
    (identity ??= createClient(protos().identity.IdentityService, addresses.identity, maxMessageBytes));
  return {
    catalog: {
      async terms(q) {
        const request = {
          vocabulary: q.vocabulary,
          text: q.text,
          viewer_tokens: q.viewerTokens,
          portal_types: q.portalTypes ?? [],
          limit: q.limit ?? 0,
        };
        const response = await callUnary<{ items: { token: string; title: string }[] }>(
          (md, o, cb) => searchClient().Terms(request, md, o, cb),
          { requestId: q.requestId, timeoutMs },
        );
        return response.items;
      },
    },
    principals: {
      async search(text, limit, requestId) {
        const response = await callUnary<{ items: { id: string; title: string; type: string }[] }>(
          (md, o, cb) => identityClient().SearchPrincipals({ text, limit }, md, o, cb),
          { requestId, timeoutMs },
        );
        return response.items;
      },
    },
    close() {
      search?.close();
      identity?.close();
    },
  };
}
