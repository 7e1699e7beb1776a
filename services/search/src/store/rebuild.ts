import type { ContentSnapshot, ProgressStep } from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import { commentEntry, hostOf, type CommentHost, type CommentRecord } from '../domain/comment-entry';
import type { Catalog } from './catalog';

export interface RebuildOptions {
  /** The time now; injected so that tests set it. */
  now: () => Date;
  /** Tombstones older than this are purged along the way (see TombstoneSweep). */
  tombstoneRetentionMs: number;
}

export interface RebuildResult {
  /** Content objects and comments written. */
  indexed: number;
  removed: number;
  purged: number;
}

/** Runs the whole rebuild (rebuildSteps) to its end. */
export async function rebuildCatalog(
  catalog: Catalog,
  snapshots: AsyncIterable<ContentSnapshot>,
  comments: () => AsyncIterable<CommentRecord> | Iterable<CommentRecord>,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const steps = rebuildSteps(catalog, snapshots, comments, 0, options);
  for (;;) {
    const step = await steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Makes the catalog equal to the content store and the discussion store (addendum §6): every object the scan
 * yields is written as the store has it, over a newer version or a tombstone the catalog held from before (a write
 * the store failed to keep, a removal that did not happen); what an event wrote meanwhile is kept when newer. Then
 * every comment on an object the scan yielded, and each such object's conversation columns. Entries neither scan
 * yielded become tombstones, and expired tombstones are purged.
 *
 * Yields a step per content object written (of `total`, content's count as the rebuild began). Stopped midway, it
 * leaves every entry it wrote as the store has it and the others as they were: nothing is removed until both
 * scans are complete, so a rebuild cut short never leaves the catalog worse, and the next one starts over.
 */
export async function* rebuildSteps(
  catalog: Catalog,
  snapshots: AsyncIterable<ContentSnapshot>,
  comments: () => AsyncIterable<CommentRecord> | Iterable<CommentRecord>,
  total: number,
  { now, tombstoneRetentionMs }: RebuildOptions,
): AsyncGenerator<ProgressStep, RebuildResult> {
  const startedAt = now().toISOString();
  const hosts = new Map<string, CommentHost>();
  for await (const snapshot of snapshots) {
    hosts.set(snapshot.uid, hostOf(snapshot));
    await catalog.refresh(entryFrom(snapshot, now().toISOString()), startedAt);
    // Objects added since the count make `done` pass it: the total grows with them.
    yield { done: hosts.size, total: Math.max(total, hosts.size), what: snapshot.path };
  }
  const scanned = hosts.size;
  yield { done: scanned, total: Math.max(total, scanned), what: 'comments' };
  const seen = new Set(hosts.keys());
  const conversations = new Set<string>();
  for await (const comment of comments()) {
    // A comment on content the scan did not yield waits for content.removed to take it from discussion.
    const host = hosts.get(comment.content_uid);
    if (!host) continue;
    const entry = commentEntry(comment, host, now().toISOString());
    seen.add(entry._id);
    conversations.add(host._id);
    await catalog.refresh(entry, startedAt);
  }
  yield { done: scanned, total: Math.max(total, scanned), what: 'stale entries' };
  const removed = await catalog.removeStale(seen, startedAt, now().toISOString());
  for (const uid of [...conversations, ...removed.hosts]) {
    const host = hosts.get(uid);
    if (host) await catalog.syncConversation(host, true);
  }
  const purged = await catalog.purgeTombstones(new Date(now().getTime() - tombstoneRetentionMs).toISOString());
  return { indexed: seen.size, removed: removed.count, purged };
}
