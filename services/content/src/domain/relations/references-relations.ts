/**
 * Relations (`@relations`): the references of the reference index seen as (source, relation, target). Those of
 * relation fields (`relatedItems` and any other relation list of a type) are made and removed by writing that
 * field of the source through the write path; links in text and blocks (`isReferencing`) are read-only, made
 * and removed by editing the text. A relation is shown only when the caller may view both of its ends.
 */
import { badRequest, clip, forbidden, hasPermission, type FieldError, type Principal__Output } from '@cms/shared';
import { accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import type { ContentCommands } from '../content/content-commands';
import { LINK_RELATION } from './links';
import type { ContentDoc } from '../content/model';
import { PATH_TARGET, type IndexedSource, type ReferenceStore } from './references';
import type { ContentRepository } from '../content/repository';
import type { TypeRegistry } from '../types';

/** One relation between two live objects. */
export interface Relation {
  relation: string;
  source: ContentDoc;
  target: ContentDoc;
}

/** A relation whose target is gone: the source, and the target as stored (a UID, or a site path). */
export interface BrokenRelation {
  relation: string;
  source: ContentDoc;
  target: string;
}

export interface RelationFilter {
  source?: ContentDoc;
  target?: ContentDoc;
  relation?: string;
  /** Further conditions on either end (`query_source`, `query_target`). */
  sourceMatches?: (doc: ContentDoc) => boolean;
  targetMatches?: (doc: ContentDoc) => boolean;
  /** At most this many relations. */
  max?: number;
}

/** A relation as a client names it: source and target by UID, site path or URL. */
export interface RelationInput {
  source: string;
  target: string;
  relation: string;
}

/** A relation's ends found and checked, ready to be written. */
interface PlannedChange {
  source: ContentDoc;
  field: string;
  target: string;
}

export class Relations {
  constructor(
    private readonly repo: ContentRepository,
    private readonly index: ReferenceStore,
    private readonly types: TypeRegistry,
    private readonly commands: ContentCommands,
  ) {}

  /** The object a client's reference names (UID, site path or URL under `publicUrl`), whoever may view it. */
  async find(ref: string, publicUrl: string): Promise<ContentDoc | null> {
    if (ref === publicUrl || ref.startsWith(publicUrl + '/')) ref = ref.slice(publicUrl.length) || '/';
    if (ref.startsWith('/')) {
      try {
        return await this.repo.byPath(decodeURIComponent(ref.replace(/\/+$/, '')) || '/');
      } catch {
        return null; // malformed percent-encoding names nothing
      }
    }
    return /^[0-9A-Za-z-]{1,64}$/.test(ref) ? this.repo.byUid(ref) : null;
  }

  /** Whether `relation` is a relation field of the source's type (one `@relations` may write). */
  isField(source: ContentDoc, relation: string): boolean {
    return this.types.find(source.portal_type)?.field(relation)?.kind === 'relationlist';
  }

  /** The relations matching `filter` whose both ends the caller may view, in source path order. */
  async list(filter: RelationFilter, principal: Principal__Output | null): Promise<Relation[]> {
    const mayView = (doc: ContentDoc) => hasPermission(principal, 'View', accessOf(doc));
    const found: Relation[] = [];
    const { live } = await this.resolved(await this.recordsFor(filter));
    for (const relation of live) {
      if (filter.relation !== undefined && relation.relation !== filter.relation) continue;
      if (filter.source && relation.source._id !== filter.source._id) continue;
      if (filter.target && relation.target._id !== filter.target._id) continue;
      if (!mayView(relation.source) || !mayView(relation.target)) continue;
      if (filter.sourceMatches && !filter.sourceMatches(relation.source)) continue;
      if (filter.targetMatches && !filter.targetMatches(relation.target)) continue;
      found.push(relation);
      if (filter.max !== undefined && found.length >= filter.max) break;
    }
    return found;
  }

  /** Relations whose target is gone, of sources the caller may view. */
  async broken(principal: Principal__Output | null, relation?: string): Promise<BrokenRelation[]> {
    const { broken } = await this.resolved(relation ? await this.index.withRelation(relation) : await this.index.all());
    return broken.filter(
      (b) =>
        (relation === undefined || b.relation === relation) && hasPermission(principal, 'View', accessOf(b.source)),
    );
  }

  /** How many relations of each name the caller may see, and how many of each name are broken. */
  async stats(
    principal: Principal__Output | null,
  ): Promise<{ stats: Record<string, number>; broken: Record<string, number> }> {
    const stats: Record<string, number> = {};
    const broken: Record<string, number> = {};
    for (const r of await this.list({}, principal)) stats[r.relation] = (stats[r.relation] ?? 0) + 1;
    for (const b of await this.broken(principal)) broken[b.relation] = (broken[b.relation] ?? 0) + 1;
    return { stats: sortedKeys(stats), broken: sortedKeys(broken) };
  }

  /**
   * Adds relations, each to its source's relation field. Every one is checked first (400 naming each that
   * fails, and nothing written); then each source is written once, through the write path.
   */
  async create(items: readonly RelationInput[], caller: Caller): Promise<void> {
    const planned = await this.plan(items, caller, 'creating');
    for (const [source, fields] of bySourceField(planned)) {
      const values: Record<string, unknown> = {};
      for (const [field, targets] of fields) {
        const current = relationUids(source, field);
        values[field] = [...new Set([...current, ...targets])];
      }
      await this.commands.update(source, { values }, caller);
    }
  }

  /** Removes relations given one by one, checked as `create` checks them. */
  async delete(items: readonly RelationInput[], caller: Caller): Promise<void> {
    await this.remove(await this.plan(items, caller, 'deleting'), caller);
  }

  /**
   * Removes every relation matching a source, a target and a relation name (any combination of them) that is
   * held by a relation field; 403 (nothing written) when the caller may not change one of their sources.
   */
  async deleteMatching(filter: Pick<RelationFilter, 'source' | 'target' | 'relation'>, caller: Caller): Promise<void> {
    if (filter.relation === LINK_RELATION) {
      throw badRequest('Links in text are removed by editing the text, not through @relations');
    }
    const matching = (await this.list(filter, caller.principal)).filter((r) => this.isField(r.source, r.relation));
    const planned = matching.map((r) => ({ source: r.source, field: r.relation, target: r.target._id }));
    for (const { source } of planned) {
      if (!hasPermission(caller.principal, 'Modify portal content', accessOf(source))) {
        throw forbidden(`Failed on deleting relations: you may not change ${source.path ?? '/'}`);
      }
    }
    await this.remove(planned, caller);
  }

  private async remove(planned: PlannedChange[], caller: Caller): Promise<void> {
    for (const [source, fields] of bySourceField(planned)) {
      const current = (await this.repo.byUid(source._id)) ?? source;
      const values: Record<string, unknown> = {};
      for (const [field, targets] of fields) {
        const gone = new Set(targets);
        const before = relationUids(current, field);
        const after = before.filter((uid) => !gone.has(uid));
        if (after.length !== before.length) values[field] = after;
      }
      if (Object.keys(values).length) await this.commands.update(current, { values }, caller);
    }
  }

  /**
   * Finds and checks both ends and the relation of every item: 400 naming each that fails, then 403 when the
   * caller may not change one of the sources.
   */
  private async plan(items: readonly RelationInput[], caller: Caller, doing: string): Promise<PlannedChange[]> {
    const errors: FieldError[] = [];
    const planned: PlannedChange[] = [];
    const mayView = (doc: ContentDoc | null): doc is ContentDoc =>
      !!doc && hasPermission(caller.principal, 'View', accessOf(doc));
    for (const [i, item] of items.entries()) {
      const [source, target] = await Promise.all([
        this.find(item.source, caller.publicUrl),
        this.find(item.target, caller.publicUrl),
      ]);
      // An object hidden from the caller is as good as missing.
      const missing = [mayView(source) ? null : 'Source', mayView(target) ? null : 'Target'].filter(Boolean);
      if (missing.length) {
        const what = missing.length === 2 ? 'Source and target' : missing[0];
        errors.push({ field: `items.${i}`, message: `Failed on ${doing} a relation. ${what} not found.` });
        continue;
      }
      if (!this.isField(source!, item.relation)) {
        const why =
          item.relation === LINK_RELATION
            ? 'links in text are changed by editing the text'
            : `"${clip(item.relation, 100)}" is not a relation field of ${source!.portal_type}`;
        errors.push({ field: `items.${i}.relation`, message: `Failed on ${doing} a relation: ${why}.` });
        continue;
      }
      planned.push({ source: source!, field: item.relation, target: target!._id });
    }
    if (errors.length) {
      throw badRequest(`Failed on ${doing} relations: ${errors.map((e) => e.message).join(' ')}`, errors);
    }
    const refused = planned.find(
      ({ source }) => !hasPermission(caller.principal, 'Modify portal content', accessOf(source)),
    );
    if (refused) throw forbidden(`Failed on ${doing} relations: you may not change ${refused.source.path ?? '/'}`);
    return planned;
  }

  /** The index records a filter needs to look at: by source, by target, by relation name, or all. */
  private async recordsFor(filter: RelationFilter): Promise<IndexedSource[]> {
    if (filter.source) {
      const record = await this.index.get(filter.source._id);
      return record ? [record] : [];
    }
    if (filter.target) return this.index.referringTo([filter.target._id, PATH_TARGET + (filter.target.path ?? '')]);
    if (filter.relation !== undefined) return this.index.withRelation(filter.relation);
    return this.index.all();
  }

  /** The records' references with both ends loaded: live ones, and broken ones (target gone). */
  private async resolved(records: IndexedSource[]): Promise<{ live: Relation[]; broken: BrokenRelation[] }> {
    const uids = new Set<string>(records.map((r) => r._id));
    const paths = new Set<string>();
    for (const record of records) {
      for (const ref of record.refs) {
        if (ref.target.startsWith(PATH_TARGET)) paths.add(ref.target.slice(PATH_TARGET.length));
        else uids.add(ref.target);
      }
    }
    const docs = new Map((await this.repo.byUids([...uids])).map((d) => [d._id, d]));
    const atPath = new Map<string, ContentDoc | null>();
    for (const path of paths) atPath.set(path, await this.repo.byPath(path));
    const live: Relation[] = [];
    const broken: BrokenRelation[] = [];
    const sorted = records
      .map((r) => ({ record: r, source: docs.get(r._id) }))
      .filter((r): r is { record: IndexedSource; source: ContentDoc } => !!r.source)
      .sort((a, b) => (a.source.path ?? '').localeCompare(b.source.path ?? ''));
    for (const { record, source } of sorted) {
      for (const ref of record.refs) {
        const target = ref.target.startsWith(PATH_TARGET)
          ? atPath.get(ref.target.slice(PATH_TARGET.length))
          : docs.get(ref.target);
        if (target) live.push({ relation: ref.relation, source, target });
        else broken.push({ relation: ref.relation, source, target: ref.target.replace(PATH_TARGET, '') });
      }
    }
    return { live, broken };
  }
}

/** The UIDs a relation field of a stored object holds. */
function relationUids(doc: ContentDoc, field: string): string[] {
  const value = doc.fields?.[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Changes grouped by source, then by field: one write per source. */
function bySourceField(planned: PlannedChange[]): Map<ContentDoc, Map<string, string[]>> {
  const bySource = new Map<string, { source: ContentDoc; fields: Map<string, string[]> }>();
  for (const { source, field, target } of planned) {
    const entry = bySource.get(source._id) ?? { source, fields: new Map<string, string[]>() };
    entry.fields.set(field, [...(entry.fields.get(field) ?? []), target]);
    bySource.set(source._id, entry);
  }
  return new Map([...bySource.values()].map((e) => [e.source, e.fields]));
}

function sortedKeys(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
