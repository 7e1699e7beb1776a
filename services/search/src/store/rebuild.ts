import type { ContentSnapshot } from '@cms/shared';
import { entryFrom } from '../domain/catalog-entry';
import type { Catalog } from './catalog';

export interface RebuildOptions {
  /** The time now; injected so that tests set it. */
  now: () => Date;
  /** Tombstones older than this are purged along the way (see TombstoneSweep). */
  tombstoneRetentionMs: number;
}

export interface RebuildResult {
  indexed: number;
  removed: number;
  purged: number;
}

/**
 * Makes the catalog equal to the content store (addendum §6): every object the scan yields is written as the store
 * has it, over a newer version or a tombstone the catalog held from before (a write the store failed to keep, a
 * removal that did not happen); what an event wrote meanwhile is kept when newer. Entries the scan did not yield
 * become tombstones, and expired tombstones are purged.
 */
export async function rebuildCatalog(
  catalog: Catalog,
  snapshots: AsyncIterable<ContentSnapshot>,
  { now, tombstoneRetentionMs }: RebuildOptions,
): Promise<RebuildResult> {
  const startedAt = now().toISOString();
  const seen = new Set<string>();
  for await (const snapshot of snapshots) {
    seen.add(snapshot.uid);
    await catalog.refresh(entryFrom(snapshot, now().toISOString()), startedAt);
  }
  const removed = await catalog.removeStale(seen, startedAt, now().toISOString());
  const purged = await catalog.purgeTombstones(new Date(now().getTime() - tombstoneRetentionMs).toISOString());
  return { indexed: seen.size, removed, purged };
}
