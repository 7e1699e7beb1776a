import { notFound, serverStream, unary, type Logger } from '@cms/shared';
import type { ContentServiceHandlers } from '@cms/shared';
import { snapshot } from '../domain/content-commands';
import type { StoreContentRepository } from '../store/content-repository';

/** Typed RPCs other services call: look-ups and the full scan for reindexing, each object as its events carry it. */
export function contentLookups(repo: StoreContentRepository, log: Logger): Omit<ContentServiceHandlers, 'Handle'> {
  return {
    GetByPath: unary(log, async (request: { path: string }) => {
      const doc = await repo.byPath(request.path);
      if (!doc) throw notFound(`No content at ${request.path}`);
      return snapshot(doc);
    }),
    GetByUid: unary(log, async (request: { uid: string }) => {
      const doc = await repo.byUid(request.uid);
      if (!doc) throw notFound(`No content with UID ${request.uid}`);
      return snapshot(doc);
    }),
    Scan: serverStream(log, async function* (request: { page_size: number }) {
      for await (const doc of repo.scan(request.page_size > 0 ? request.page_size : 500)) yield snapshot(doc);
    }),
  };
}
