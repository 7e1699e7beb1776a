import {
  AppError,
  callUnary,
  progressMessages,
  requestMetadata,
  serverStream,
  type ContentServiceClient,
  type DiscussionServiceClient,
  type Logger,
  type RebuildCheckpoints,
  type SearchServiceHandlers,
} from '@cms/shared';
import { rebuildSteps, type RebuildOptions, type RebuildSources } from '../store/rebuild';
import type { Catalog } from '../store/catalog';

/**
 * `Reindex`: rebuilds the catalog from the content store and the discussion store (addendum §6), streaming its
 * progress; a cancelled call stops it (store/rebuild.ts says what that leaves, and how the next call resumes it
 * from the checkpoint unless it asks `from_scratch`). The clients are made when a
 * reindex runs, so their addresses may be known late.
 */
export function searchRpcs(
  catalog: Catalog,
  content: () => ContentServiceClient,
  discussion: () => DiscussionServiceClient,
  log: Logger,
  options: RebuildOptions & { connectWaitMs: number; checkpoints?: RebuildCheckpoints },
): Omit<SearchServiceHandlers, 'Handle' | 'Terms' | 'QueryCollection'> {
  return {
    Reindex: serverStream(log, async function* (request: { from_scratch: boolean }, ctx) {
      // A reindex often follows a restart (a restore): the channels may still be reconnecting, so each scan first
      // waits for its service, within connectWaitMs; the scans themselves have no deadline (they last as needed).
      await connected(content(), 'content', options.connectWaitMs);
      await connected(discussion(), 'discussion', options.connectWaitMs);
      const { count } = await callUnary<{ count: number }>((md, o, cb) => content().CountObjects({}, md, o, cb), {
        requestId: ctx.requestId,
        timeoutMs: options.connectWaitMs,
      });
      if (request.from_scratch) await options.checkpoints?.clear();
      let scan: ReturnType<ContentServiceClient['Scan']> | undefined;
      const sources: RebuildSources = {
        snapshots: (afterUid) =>
          (scan = content().Scan({ page_size: 500, after_uid: afterUid }, requestMetadata(ctx.requestId))),
        comments: () => discussion().ScanComments({ page_size: 500 }, requestMetadata(ctx.requestId)),
      } as RebuildSources;
      const steps = rebuildSteps(catalog, sources, count, options, options.checkpoints);
      let ended = false;
      try {
        for await (const message of progressMessages(steps)) {
          if (message.result) ctx.log.info(message.result, 'reindex done');
          yield message.result
            ? { ...message, result: { indexed: message.result.indexed, removed: message.result.removed } }
            : message;
        }
        ended = true;
      } finally {
        // Cancelled by the caller, or failed: the content scan stops with it (no-op once it is complete).
        scan?.cancel();
        if (!ended) {
          ctx.log.warn('reindex stopped before its end: the entries written so far are kept, none removed; resumable');
        }
      }
    }),
  };
}

/** Resolves once the client's channel is connected; ServiceUnavailable when it is not within `waitMs`. */
function connected(
  client: { waitForReady(deadline: Date, callback: (error?: Error) => void): void },
  name: string,
  waitMs: number,
) {
  return new Promise<void>((resolve, reject) =>
    client.waitForReady(new Date(Date.now() + waitMs), (error) =>
      error
        ? reject(new AppError('ServiceUnavailable', `The ${name} service is not reachable; reindex again once it is`))
        : resolve(),
    ),
  );
}
