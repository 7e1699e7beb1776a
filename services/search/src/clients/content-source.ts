import { AppError, callUnary, type ContentServiceClient, type ContentSnapshot } from '@cms/shared';

/** The content service as search asks it about the objects that events name. */
export interface ContentSource {
  /**
   * The object as the content store holds it now (`ContentService.GetByUid`), or null when content says there is
   * no such object. Rejects when content does not answer, so that the event is retried.
   */
  current(uid: string, requestId: string): Promise<ContentSnapshot | null>;
}

/** How often a content address not known yet is looked for again: short, so that the first event goes soon after. */
const ADDRESS_POLL_MS = 10;

/**
 * `client` gives the content client, or throws while content's address is not known: in the embedded mode search
 * starts first and learns it once content has started, after content's first write (the site root), whose event
 * is confirmed here. That wait is bounded by the call's deadline, like the call.
 */
export function remoteContentSource(client: () => ContentServiceClient, timeoutMs: number): ContentSource {
  return {
    async current(uid, requestId) {
      const deadline = Date.now() + timeoutMs;
      const content = await clientBefore(client, deadline);
      try {
        return await callUnary<ContentSnapshot>((md, o, cb) => content.GetByUid({ uid }, md, o, cb), {
          requestId,
          timeoutMs: Math.max(1, deadline - Date.now()),
        });
      } catch (error) {
        if (error instanceof AppError && error.type === 'NotFound') return null;
        throw error;
      }
    },
  };
}

async function clientBefore(client: () => ContentServiceClient, deadline: number): Promise<ContentServiceClient> {
  for (;;) {
    try {
      return client();
    } catch (error) {
      if (Date.now() + ADDRESS_POLL_MS >= deadline) {
        throw new AppError('ServiceUnavailable', `The content service is not reachable: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, ADDRESS_POLL_MS));
    }
  }
}
