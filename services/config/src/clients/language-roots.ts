import { callUnary, createClient, protos } from '@cms/shared';
import type { LanguageRoots } from '../domain/language-roots';

/** Content's `EnsureLanguageRoots`; connected on first use (the embedded suite starts config before content). */
export function remoteLanguageRoots(
  address: () => string,
  timeoutMs: number,
  maxMessageBytes: number,
): LanguageRoots & { close(): void } {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().content.ContentService, address(), maxMessageBytes);
  return {
    async ensure(languages, requestId) {
      const content = (client ??= connect());
      const answer = await callUnary<{ paths: string[] }>(
        (md, o, cb) => content.EnsureLanguageRoots({ languages: [...languages] }, md, o, cb),
        { requestId, timeoutMs },
      );
      return answer.paths;
    },
    close: () => client?.close(),
  };
}
