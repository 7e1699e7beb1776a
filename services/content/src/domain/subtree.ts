import { newEvent } from '@cms/shared';
import { accessFields } from './access';
import { snapshot } from './content-commands';
import { childPath, MAX_WRITE_ATTEMPTS, type ContentDoc } from './model';
import type { ContentRepository, EventRelay } from './repository';

/** How old a stale mark must be before the sweep takes it over from the request that set it. */
export const STALE_GRACE_MS = 30_000;

/**
 * Keeps what descendants derive from their ancestors — path, ancestor UIDs,
 * inherited local roles and who may view them — in step after a write to an
 * ancestor (move, rename, sharing). The ancestor's write sets `subtree_stale`
 * in the same atomic operation; this walk rewrites each descendant that
 * differs, each with its own event, then clears the mark. Every step is
 * idempotent, so a walk cut short by a crash is simply run again by the sweep.
 */
export class SubtreeFollower {
  constructor(
    private readonly repo: ContentRepository,
    private readonly relay: EventRelay,
  ) {}

  /** Brings everything below `anchor` (as now stored) in line with it. */
  async follow(anchor: ContentDoc, requestId: string): Promise<void> {
    const current = (await this.repo.byUid(anchor._id)) ?? anchor;
    const derived = new Map<string, ContentDoc>([[current._id, current]]);
    const written: string[] = [];
    for (const child of await this.repo.descendants(current._id)) {
      const parent = derived.get(child.parent_uid ?? '');
      // A child whose parent is not in the walk was moved out meanwhile; its own move keeps it current.
      if (!parent) continue;
      const next = await this.rederive(child, parent, requestId);
      if (next !== child) written.push(child._id);
      derived.set(child._id, next);
    }
    if (current.subtree_stale) await this.repo.clearStale(current._id, current.subtree_stale);
    await Promise.all(written.map((uid) => this.relay.flush(uid)));
  }

  /**
   * After a workflow transition: the children without a workflow (files,
   * images) take the container's new state. Only direct children can acquire
   * it (such objects are not folders), so this is no walk of the subtree.
   */
  async followChildren(anchor: ContentDoc, requestId: string): Promise<void> {
    const current = (await this.repo.byUid(anchor._id)) ?? anchor;
    const written: string[] = [];
    for (const child of await this.repo.allChildren(current._id)) {
      if (child.review_state !== null) continue;
      if ((await this.rederive(child, current, requestId)) !== child) written.push(child._id);
    }
    if (current.subtree_stale) await this.repo.clearStale(current._id, current.subtree_stale);
    await Promise.all(written.map((uid) => this.relay.flush(uid)));
  }

  /** Finishes walks that a crash or a failed request left behind. */
  async sweep(now: Date, requestId: string): Promise<number> {
    const before = new Date(now.getTime() - STALE_GRACE_MS).toISOString();
    const stale = await this.repo.staleSubtrees(before);
    // Outermost first: an inner anchor's walk is then usually already done.
    stale.sort((a, b) => a.ancestors.length - b.ancestors.length);
    for (const anchor of stale) await this.follow(anchor, requestId);
    return stale.length;
  }

  /** Rewrites one descendant from its (already current) parent; returns it unchanged when nothing differs. */
  private async rederive(initial: ContentDoc, parent: ContentDoc, requestId: string): Promise<ContentDoc> {
    let doc = initial;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const derived = derivedFields(doc, parent);
      if (!differs(doc, derived)) return doc;
      const next: ContentDoc = { ...doc, ...derived, version: doc.version + 1 };
      const moved = derived.path !== doc.path;
      const event = moved
        ? newEvent(
            'content.moved',
            {
              uid: doc._id,
              version: next.version,
              old_path: doc.path ?? '',
              new_path: next.path ?? '',
              old_parent_uid: doc.parent_uid ?? '',
              new_parent_uid: next.parent_uid ?? '',
              snapshot: snapshot(next),
            },
            requestId,
          )
        : newEvent(
            'content.modified',
            { uid: doc._id, version: next.version, changed: ['local_roles'], snapshot: snapshot(next) },
            requestId,
          );
      if (await this.repo.setFields(doc._id, doc.version, { ...derived, version: next.version }, event)) return next;
      const reread = await this.repo.byUid(doc._id);
      if (!reread) return doc;
      doc = reread;
    }
    throw new Error(`descendant ${initial._id} kept changing while its subtree was being followed`);
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
