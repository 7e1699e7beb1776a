/**
 * Link integrity: before objects are deleted, which other objects refer to them or to anything inside them
 * (links in text and blocks, a Link's URL, relation fields). References from inside what is deleted do not
 * count; a referring object the caller may not view is counted, never named.
 */
import { hasPermission, type Principal__Output } from '@cms/shared';
import { accessOf } from '../content/access';
import type { ContentDoc } from '../content/model';
import { PATH_TARGET, type ReferenceStore } from './references';
import type { ContentRepository } from '../content/repository';

/** What deleting one checked object would break. */
export interface IntegrityCheck {
  doc: ContentDoc;
  /** Objects outside the deletion that refer to it or to something inside it, that the caller may view. */
  sources: ContentDoc[];
  /** How many more such objects there are, that the caller may not view. */
  hidden: number;
  /** How many objects inside it the caller may view. */
  itemsTotal: number;
}

/**
 * One check per object of `uids` the caller may view (unknown UIDs and objects hidden from the caller are
 * left out), in the order asked. Every checked object and what is inside it are deleted together: references
 * between them are no breach.
 */
export async function integrityChecks(
  uids: readonly string[],
  principal: Principal__Output | null,
  repo: ContentRepository,
  index: ReferenceStore,
): Promise<IntegrityCheck[]> {
  const mayView = (doc: ContentDoc) => hasPermission(principal, 'View', accessOf(doc));
  const found = await repo.byUids([...new Set(uids)]);
  const byUid = new Map(found.filter(mayView).map((d) => [d._id, d]));
  const checked = [...new Set(uids)].map((uid) => byUid.get(uid)).filter((d): d is ContentDoc => !!d);
  const inside = new Map<string, ContentDoc[]>();
  const deleted = new Set<string>();
  for (const doc of checked) {
    const below = await repo.descendants(doc._id);
    inside.set(doc._id, below);
    deleted.add(doc._id);
    for (const d of below) deleted.add(d._id);
  }
  const isDeleted = (doc: ContentDoc) => deleted.has(doc._id) || doc.ancestors.some((uid) => deleted.has(uid));

  const checks: IntegrityCheck[] = [];
  for (const doc of checked) {
    const subtree = [doc, ...(inside.get(doc._id) ?? [])];
    const targets = subtree.flatMap((d) => [d._id, PATH_TARGET + (d.path ?? '')]);
    const records = await index.referringTo(targets);
    const candidates = records.map((r) => r._id).filter((uid) => !deleted.has(uid));
    const sources = (await repo.byUids(candidates)).filter((d) => !isDeleted(d));
    const visible = sources.filter(mayView).sort((a, b) => (a.path ?? '').localeCompare(b.path ?? ''));
    checks.push({
      doc,
      sources: visible,
      hidden: sources.length - visible.length,
      itemsTotal: subtree.slice(1).filter(mayView).length,
    });
  }
  return checks;
}
