import { callUnary, createClient, protos } from '@cms/shared';

export interface Author {
  id: string;
  /** The full name, or the id where there is none. */
  title: string;
  hasPortrait: boolean;
  /** Only when asked for (`withEmail`): notifications are mailed to it, it is never rendered. */
  email?: string;
}

export interface AuthorDirectory {
  /** The users among `ids` that identity knows (a removed author is missing). */
  describe(ids: string[], requestId: string, options?: { withEmail?: boolean }): Promise<Map<string, Author>>;
}

interface Summaries {
  items: { id: string; title: string; type: string; has_portrait?: boolean; email?: string }[];
}

/** Authors as identity describes them (`DescribePrincipals`), once per request for every author on a page. */
export function identityAuthors(address: () => string, timeoutMs: number, maxMessageBytes: number) {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().identity.IdentityService, address(), maxMessageBytes);
  const directory: AuthorDirectory & { close(): void } = {
    async describe(ids, requestId, options = {}) {
      const found = new Map<string, Author>();
      if (ids.length === 0) return found;
      const identity = (client ??= connect());
      const { items } = await callUnary<Summaries>(
        (md, o, cb) => identity.DescribePrincipals({ ids, with_email: options.withEmail === true }, md, o, cb),
        {
          requestId,
          timeoutMs,
        },
      );
      for (const item of items) {
        if (item.type !== 'user') continue;
        found.set(item.id, {
          id: item.id,
          title: item.title,
          hasPortrait: item.has_portrait === true,
          ...(item.email ? { email: item.email } : {}),
        });
      }
      return found;
    },
    close: () => client?.close(),
  };
  return directory;
}
