import { callUnary, createClient, protos } from '@cms/shared';
import type { SiteRootTitle } from '../domain/site-title';

/** Content's `SetSiteTitle`; connected on first use (the embedded suite starts config before content). */
export function remoteSiteRootTitle(
  address: () => string,
  timeoutMs: number,
  maxMessageBytes: number,
): SiteRootTitle & { close(): void } {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().content.ContentService, address(), maxMessageBytes);
  return {
    async set(title, requestId) {
      const content = (client ??= connect());
      await callUnary((md, o, cb) => content.SetSiteTitle({ title }, md, o, cb), { requestId, timeoutMs });
    },
    close: () => client?.close(),
  };
}
