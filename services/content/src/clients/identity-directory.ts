import { callUnary, createClient, protos, type IdentityServiceClient } from '@cms/shared';
import type { PrincipalDirectory, PrincipalSummary } from '../domain/sharing';

/** Users and groups as the identity service knows them. */
export function identityDirectory(
  address: string,
  timeoutMs: number,
  maxMessageBytes: number,
): PrincipalDirectory & { close(): void } {
  const client: IdentityServiceClient = createClient(protos().identity.IdentityService, address, maxMessageBytes);
  const call = (requestId: string, invoke: Parameters<typeof callUnary<{ items: PrincipalSummary[] }>>[0]) =>
    callUnary<{ items: PrincipalSummary[] }>(invoke, { requestId, timeoutMs }).then((r) => r.items);
  return {
    describe: (ids, requestId) =>
      ids.length === 0
        ? Promise.resolve([])
        : call(requestId, (md, o, cb) => client.DescribePrincipals({ ids }, md, o, cb)),
    search: (text, requestId) =>
      call(requestId, (md, o, cb) => client.SearchPrincipals({ text, limit: 50 }, md, o, cb)),
    close: () => client.close(),
  };
}
