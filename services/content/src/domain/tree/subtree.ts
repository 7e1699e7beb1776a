import { accessFields } from '../content/access';
import { modifiedEvent, movedEvent } from '../content/content-events';
import { childPath, type ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import { SYSTEM_WRITE, type ContentWriter, type DeferredFlushes } from '../content/write-path';

/** How old a stale mark must be before the sweep takes it over from the request that set it. */
export const STALE_GRACE_MS = 30_000;

/**
 * Another follow-up finished from the same mark: a write that leaves other documents to write sets
 * `subtree_stale` with a record of its own saying what is left (working copies: `iteration_pending`). The
 * mark stays until no registered follow-up is pending; the sweep runs those a crash left behind.
 */
export interface FollowUp {
  /** Whether `doc` (as stored) still has this follow-up to finish. */
  pending(doc: ContentDoc): boolean;
  /** Finishes it and clears its record (idempotent: a sweep may run it again), then `follow`s `doc`. */
  finish(doc: ContentDoc, requestId: string): Promise<void>;
}

/**
 * Keeps what descendants derive from their ancestors — path, ancestor UIDs,
 * inherited local roles and who may view them — in step after a write to an
 * ancestor (move, rename, sharing). The ancestor's write sets `subtree_stale`
 * in the same atomic operation; this walk rewrites each descendant that
 * differs, each with its own event (system writes: the anchor's write was the
 * one allowed), then clears the mark. Every step is idempotent, so a walk cut
 * short by a crash is simply run again by the sweep.
 */
export class SubtreeFollower {
  private readonly followUps: FollowUp[] = [];

  constructor(
    private readonly repo: ContentRepository,
    private readonly writer: ContentWriter,
  ) {}

  /** Adds a follow-up that shares the mark (and so the sweep). */
  register(followUp: FollowUp): void {
    this.followUps.push(followUp);
  }

  /** Brings everything below `anchor` (as now stored) in line with it. */
  async follow(anchor: ContentDoc, requestId: string): Promise<void> {
    const current = (await this.repo.byUid(anchor._id)) ?? anchor;
    const derived = new Map<string, ContentDoc>([[current._id, current]]);
    const flushes = this.writer.deferFlushes();
    for (const child of await this.repo.descendants(current._id)) {
      const parent = derived.get(child.parent_uid ?? '');
      // A child whose parent is not in the walk was moved out meanwhile; its own move keeps it current.
      if (!parent) continue;
      derived.set(child._id, await this.rederive(child, parent, requestId, flushes));
    }
    await this.clearMark(current);
    await flushes.flush();
  }

  /**
   * After a workflow transition: the children without a workflow (files,
   * images) take the container's new state. Only direct children can acquire
   * it (such objects are not folders), so this is no walk of the subtree.
   */
  async followChildren(anchor: ContentDoc, requestId: string): Promise<void> {
    const current = (await this.repo.byUid(anchor._id)) ?? anchor;
    const flushes = this.writer.deferFlushes();
    for (const child of await this.repo.allChildren(current._id)) {
      if (child.review_state === null) await this.rederive(child, current, requestId, flushes);
    }
    await this.clearMark(current);
    await flushes.flush();
  }

  /** Finishes walks that a crash or a failed request left behind, marked at least `graceMs` before `now`. */
  async sweep(now: Date, requestId: string, graceMs = STALE_GRACE_MS): Promise<number> {
    const before = new Date(now.getTime() - graceMs).toISOString();
    const stale = await this.repo.staleSubtrees(before);
    // Outermost first: an inner anchor's walk is then usually already done.
    stale.sort((a, b) => a.ancestors.length - b.ancestors.length);
    for (const anchor of stale) {
      for (const followUp of this.followUps) if (followUp.pending(anchor)) await followUp.finish(anchor, requestId);
      await this.follow(anchor, requestId);
    }
    return stale.length;
  }

  /** Clears the mark as read at the start of a walk, unless another follow-up still needs it. */
  private async clearMark(current: ContentDoc): Promise<void> {
    if (!current.subtree_stale || this.followUps.some((f) => f.pending(current))) return;
    await this.repo.clearStale(current._id, current.subtree_stale);
  }

  /** Rewrites one descendant from its (already current) parent; returns it as stored afterwards. */
  private async rederive(
    child: ContentDoc,
    parent: ContentDoc,
    requestId: string,
    flushes: DeferredFlushes,
  ): Promise<ContentDoc> {
    const written = await this.writer.write(
      child,
      {
        kind: 'subtree',
        plan: (current) => {
          const derived = derivedFields(current, parent);
          if (!differs(current, derived)) return null;
          return {
            set: derived,
            events: (next) => [
              next.path !== current.path
                ? movedEvent(current, next, requestId)
                : modifiedEvent(next, ['local_roles'], requestId),
            ],
          };
        },
      },
      SYSTEM_WRITE,
      flushes,
    );
    // Removed meanwhile: it has nothing below it to pass on either.
    return written?.after ?? child;
  }
}

type Derived = Pick<ContentDoc, 'path' | 'ancestors' | 'effective_local_roles' | 'acquired_state' | 'allowed'>;

function derivedFields(doc: ContentDoc, parent: ContentDoc): Derived {
  return {
    path: childPath(parent.path ?? '/', doc.id),
    ancestors: [...parent.ancestors, parent._id],
    ...accessFields(doc, parent),
  };
}

function differs(doc: ContentDoc, derived: Derived): boolean {
  return (
    doc.path !== derived.path ||
    (doc.acquired_state ?? null) !== derived.acquired_state ||
    JSON.stringify(doc.ancestors) !== JSON.stringify(derived.ancestors) ||
    JSON.stringify(doc.effective_local_roles ?? []) !== JSON.stringify(derived.effective_local_roles ?? []) ||
    JSON.stringify(doc.allowed ?? []) !== JSON.stringify(derived.allowed ?? [])
  );
}
