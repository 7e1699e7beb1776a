import { hasPermission, notFound, serverStream, unary, type Logger, type Principal__Output } from '@cms/shared';
import type { ContentServiceHandlers } from '@cms/shared';
import { accessOf } from '../domain/content';
import { snapshot } from '../domain/content';
import type { StoreContentRepository } from '../store/content-repository';
import type { ContentDeps } from './declarations';
import { plainGet, renderContent } from './render';

/** Most UIDs one RenderMany call renders (a search batch is far smaller). */
const MAX_RENDER_MANY = 1000;

/** Typed RPCs other services call: look-ups and the full scan for reindexing, each object as its events carry it. */
export function contentLookups(
  repo: StoreContentRepository,
  log: Logger,
  deps: ContentDeps,
): Omit<ContentServiceHandlers, 'Handle' | 'ApplyRuleAction'> {
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
    Scan: serverStream(log, async function* (request: { page_size: number; after_uid: string }) {
      const pageSize = request.page_size > 0 ? request.page_size : 500;
      for await (const doc of repo.scan(pageSize, request.after_uid)) yield snapshot(doc);
    }),
    // The total of a reindex's progress (search's `Reindex`).
    CountObjects: unary(log, async () => ({ count: await repo.countInTree() })),
    RenderMany: unary(log, async (request: RenderManyInput, ctx) => {
      const uids = request.uids.slice(0, MAX_RENDER_MANY);
      const principal = request.principal ?? null;
      const docs = await Promise.all(uids.map((uid) => repo.byUid(uid)));
      const objects = await Promise.all(
        docs.map(async (doc) => {
          // The catalog may lag behind a permission change: what the caller may not view now is left out.
          if (!doc || !hasPermission(principal, 'View', accessOf(doc))) return null;
          const call = plainGet(
            { principal, publicUrl: request.public_url, requestId: ctx.requestId, log },
            doc.path ?? '/',
          );
          return { uid: doc._id, json: Buffer.from(JSON.stringify(await renderContent(call, doc, deps))) };
        }),
      );
      return { objects: objects.filter((o) => o !== null) };
    }),
  };
}

interface RenderManyInput {
  uids: string[];
  principal?: Principal__Output | null;
  public_url: string;
}
