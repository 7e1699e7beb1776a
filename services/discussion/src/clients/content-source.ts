import { AppError, callUnary, createClient, protos } from '@cms/shared';

export interface ContentSource {
  /** The object's current path, or null when content has no object of that UID. Rejects when content does not answer. */
  pathOf(uid: string, requestId: string): Promise<string | null>;
}

/** Content as the `content.removed` consumer asks it whether an object is really gone (`GetByUid`). */
export function remoteContentSource(address: () => string, timeoutMs: number, maxMessageBytes: number) {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().content.ContentService, address(), maxMessageBytes);
  const source: ContentSource & { close(): void } = {
    async pathOf(uid, requestId) {
      const content = (client ??= connect());
      try {
        const found = await callUnary<{ path: string }>((md, o, cb) => content.GetByUid({ uid }, md, o, cb), {
          requestId,
          timeoutMs,
        });
        return found.path;
      } catch (error) {
        if (error instanceof AppError && error.type === 'NotFound') return null;
        throw error;
      }
    },
    close: () => client?.close(),
  };
  return source;
}
