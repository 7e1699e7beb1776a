import type { ContentSnapshot, ProgressStep, RebuildCheckpoints } from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import { commentEntry, hostOf, type CommentHost, type CommentRecord } from '../domain/comment-entry';
import type { Catalog } from './catalog';

export interface RebuildOptions {
  /** The time now; injected so that tests set it. */
  now: () => Date;
  /** Tombstones older than this are purged along the way (see TombstoneSweep). */
  tombstoneRetentionMs: number;
}

/** What a rebuild reads: content's objects, then discussion's comments. */
export interface RebuildSources {
  /** Every live content object in UID order; only those after `afterUid` ('' for all: a rebuild resumed). */
  snapshots(afterUid: string): AsyncIterable<ContentSnapshot>;
  /** Opened once the content scan is done: a comment added meanwhile is found, on content the scan saw. */
  comments(): AsyncIterable<CommentRecord> | Iterable<CommentRecord>;
}

export interface RebuildResult {
  /** Content objects and comments written (those of the part before a resume included). */
  indexed: number;
  removed: number;
  purged: number;
}

/**
 * The checkpoint is saved after this many objects (and when the rebuild stops short): a rebuild killed outright
 * redoes at most these, which is harmless (each entry is rewritten from the store).
 */
const CHECKPOINT_EVERY = 200;

/** Runs the whole rebuild (rebuildSteps) to its end. */
export async function rebuildCatalog(
  catalog: Catalog,
  sources: RebuildSources,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const steps = rebuildSteps(catalog, sources, 0, options);
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
 * scans are complete, so a rebuild cut short never leaves the catalog worse.
 *
 * With `checkpoints`, a rebuild cut short is resumed by the next one: it keeps the first one's start time, and the
 * content scan goes on after the last UID written. What the first part wrote was written since that time, so the
 * sweep (which only looks at entries written before it) keeps it as seen, and the comments of the objects it
 * scanned find their object in the catalog. A rebuild that ends clears its checkpoint, so the next one starts over.
 */
export async function* rebuildSteps(
  catalog: Catalog,
  sources: RebuildSources,
  total: number,
  { now, tombstoneRetentionMs }: RebuildOptions,
  checkpoints?: RebuildCheckpoints,
): AsyncGenerator<ProgressStep, RebuildResult> {
  const resumed = checkpoints ? await checkpoints.load() : null;
  const startedAt = resumed?.started_at ?? now().toISOString();
  /** The objects up to this UID were scanned before the rebuild was cut short. */
  const resumedAfter = resumed?.after_uid ?? '';
  const doneBefore = resumed?.done ?? 0;
  let done = doneBefore;
  let afterUid = resumedAfter;
  let scanComplete = resumed?.scan_complete ?? false;
  const save = async () =>
    checkpoints?.save({
      started_at: startedAt,
      after_uid: afterUid,
      done,
      scan_complete: scanComplete,
      saved_at: now().toISOString(),
    });
  const hosts = new Map<string, CommentHost | null>();
  const hostOfComment = async (uid: string): Promise<CommentHost | null> => {
    const known = hosts.get(uid);
    if (known !== undefined || uid > resumedAfter) return known ?? null;
    const host = await catalog.hostWrittenSince(uid, startedAt);
    hosts.set(uid, host);
    return host;
  };
  let ended = false;
  try {
    if (resumed) yield { done, total: Math.max(total, done), what: `resuming the rebuild begun at ${startedAt}` };
    if (!scanComplete) {
      let unsaved = 0;
      for await (const snapshot of sources.snapshots(resumedAfter)) {
        hosts.set(snapshot.uid, hostOf(snapshot));
        await catalog.refresh(entryFrom(snapshot, now().toISOString()), startedAt);
        done += 1;
        afterUid = snapshot.uid;
        if (++unsaved === CHECKPOINT_EVERY) {
          await save();
          unsaved = 0;
        }
        // Objects added since the count make `done` pass it: the total grows with them.
        yield { done, total: Math.max(total, done), what: snapshot.path };
      }
      scanComplete = true;
      await save();
    }
    yield { done, total: Math.max(total, done), what: 'comments' };
    const seen = new Set(hosts.keys());
    const conversations = new Set<string>();
    for await (const comment of sources.comments()) {
      // A comment on content the scan did not yield waits for content.removed to take it from discussion.
      const host = await hostOfComment(comment.content_uid);
      if (!host) continue;
      const entry = commentEntry(comment, host, now().toISOString());
      seen.add(entry._id);
      conversations.add(host._id);
      await catalog.refresh(entry, startedAt);
    }
    yield { done, total: Math.max(total, done), what: 'stale entries' };
    const removed = await catalog.removeStale(seen, startedAt, now().toISOString());
    for (const uid of [...conversations, ...removed.hosts]) {
      const host = await hostOfComment(uid);
      if (host) await catalog.syncConversation(host, true);
    }
    const purged = await catalog.purgeTombstones(new Date(now().getTime() - tombstoneRetentionMs).toISOString());
    await checkpoints?.clear();
    ended = true;
    return { indexed: doneBefore + seen.size, removed: removed.count, purged };
  } finally {
    // Stopped short (cancelled, or failed): the next rebuild goes on from here (a new one that did nothing yet
    // leaves none). Best effort: when the store is what failed, the last periodic checkpoint stands.
    if (!ended && (resumed || done > 0)) await save().catch(() => undefined);
  }
}
