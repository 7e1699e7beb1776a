import { notFound, serverStream, unary, type Logger } from '@cms/shared';
import type { ContentRecord, ContentServiceHandlers } from '@cms/shared';
import { snapshot } from '../domain/content-commands';
import type { ContentDoc } from '../domain/model';
import type { StoreContentRepository } from '../store/content-repository';

/** A snapshot as a record: proto `optional` members are left out where the snapshot has null. */
function toRecord(doc: ContentDoc): ContentRecord {
  const { review_state, effective, expires, ...rest } = snapshot(doc);
  return {
    ...rest,
    ...(review_state === null ? {} : { review_state }),
    ...(effective === null ? {} : { effective }),
    ...(expires === null ? {} : { expires }),
  };
}

/** Typed RPCs other services call: look-ups and the full scan for reindexing. */
export function contentLookups(repo: StoreContentRepository, log: Logger): Omit<ContentServiceHandlers, 'Handle'> {
  return {
    GetByPath: unary(log, async (request: { path: string }) => {
      const doc = await repo.byPath(request.path);
      if (!doc) throw notFound(`No content at ${request.path}`);
      return toRecord(doc);
    }),
    GetByUid: unary(log, async (request: { uid: string }) => {
      const doc = await repo.byUid(request.uid);
      if (!doc) throw notFound(`No content with UID ${request.uid}`);
      return toRecord(doc);
    }),
    Scan: serverStream(log, async function* (request: { page_size: number }) {
      for await (const doc of repo.scan(request.page_size > 0 ? request.page_size : 500)) yield toRecord(doc);
    }),
  };
}
