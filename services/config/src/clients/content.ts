import { AppError, callUnary, createClient, protos, type ContentSnapshot } from '@cms/shared';
import type { ContentActions, ContentObjects, RuleContentAction } from '../domain/rule-runner';

/**
 * The content service as the rules need it: the objects events name and the folders above them (`GetByPath`,
 * `GetByUid`), and the content actions of rules (`ApplyRuleAction`). Connected on first use, since the embedded
 * suite starts config before content.
 */
export function remoteContent(address: () => string, timeoutMs: number, maxMessageBytes: number) {
  let client: ReturnType<typeof connect> | undefined;
  const connect = () => createClient(protos().content.ContentService, address(), maxMessageBytes);
  const lookUp = async (call: 'path' | 'uid', key: string, requestId: string): Promise<ContentSnapshot | null> => {
    const content = (client ??= connect());
    try {
      return await callUnary<ContentSnapshot>(
        (md, o, cb) =>
          call === 'path' ? content.GetByPath({ path: key }, md, o, cb) : content.GetByUid({ uid: key }, md, o, cb),
        { requestId, timeoutMs },
      );
    } catch (error) {
      if (error instanceof AppError && error.type === 'NotFound') return null;
      throw error;
    }
  };
  const remote: ContentObjects &
    ContentActions & {
      countByType(names: readonly string[], requestId: string): Promise<Record<string, number>>;
      close(): void;
    } = {
    byPath: (path, requestId) => lookUp('path', path, requestId),
    byUid: (uid, requestId) => lookUp('uid', uid, requestId),
    async apply(action: RuleContentAction, requestId: string) {
      const content = (client ??= connect());
      const done = await callUnary<{ path: string }>(
        (md, o, cb) =>
          content.ApplyRuleAction(
            {
              uid: action.uid,
              action: action.action,
              target: action.target ?? '',
              transition: action.transition ?? '',
              comment: action.comment ?? '',
              action_key: action.key,
            },
            md,
            o,
            cb,
          ),
        { requestId, timeoutMs },
      );
      return done.path;
    },
    /** How many objects of each type exist. */
    async countByType(names: readonly string[], requestId: string): Promise<Record<string, number>> {
      const content = (client ??= connect());
      const answer = await callUnary<{ counts: Record<string, string> }>(
        (md, o, cb) => content.CountByType({ types: [...names] }, md, o, cb),
        { requestId, timeoutMs },
      );
      return Object.fromEntries(Object.entries(answer.counts).map(([name, count]) => [name, Number(count)]));
    },
    close: () => client?.close(),
  };
  return remote;
}
