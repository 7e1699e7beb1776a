/**
 * The reference index's rules: what an object refers to (links.ts), kept per source at the source's version;
 * and its rebuild from the content store, which yields what the incremental updates yield. A link stored by
 * path (its target did not exist when it was written) is kept as that path (`path:/a/b`) and resolved when
 * the index is read, so what it names never depends on when the index was fed.
 */
import { referencesOf } from './links';
import type { ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { TypeRegistry } from '../types';

/** One reference of a source object: a relation name and a target UID (or `path:<site path>`). */
export interface IndexedReference {
  relation: string;
  target: string;
}

/** How a target named by path is kept in the index. */
export const PATH_TARGET = 'path:';

/** The references of one source as the index holds them (`_id`: the source's UID). */
export interface IndexedSource {
  _id: string;
  version: number;
  refs: IndexedReference[];
}

/** Where the references are kept (store/reference-index.ts). */
export interface ReferenceStore {
  put(uid: string, version: number, refs: IndexedReference[], force?: boolean): Promise<boolean>;
  remove(uids: readonly string[]): Promise<void>;
  get(uid: string): Promise<IndexedSource | null>;
  referringTo(targets: readonly string[]): Promise<IndexedSource[]>;
  withRelation(relation: string): Promise<IndexedSource[]>;
  all(): Promise<IndexedSource[]>;
  sources(): Promise<string[]>;
}

export class References {
  constructor(
    private readonly repo: ContentRepository,
    readonly index: ReferenceStore,
    private readonly types: TypeRegistry,
  ) {}

  /** What a stored object refers to; itself and duplicates left out. */
  extract(doc: ContentDoc): IndexedReference[] {
    const type = this.types.find(doc.portal_type);
    if (!type) return [];
    const seen = new Set<string>();
    const refs: IndexedReference[] = [];
    for (const ref of referencesOf(doc.fields ?? {}, type)) {
      const target = 'uid' in ref.target ? ref.target.uid : PATH_TARGET + ref.target.path;
      const key = `${ref.relation}\n${target}`;
      if (target === doc._id || target === PATH_TARGET + doc.path || seen.has(key)) continue;
      seen.add(key);
      refs.push({ relation: ref.relation, target });
    }
    return refs;
  }

  /**
   * Brings the index in step with the object as content has it now (an event about it arrived): its references
   * stored at its version, or dropped when it is gone. Idempotent, and never goes back to an older version.
   */
  async refresh(uid: string): Promise<'stored' | 'current' | 'removed'> {
    const doc = await this.repo.byUid(uid);
    if (!doc) {
      await this.index.remove([uid]);
      return 'removed';
    }
    return (await this.index.put(uid, doc.version, this.extract(doc))) ? 'stored' : 'current';
  }

  /** Drops the sources of a removal that content no longer has (one still live is a forged or confused event). */
  async removed(uids: readonly string[]): Promise<number> {
    const live = new Set((await this.repo.byUids([...uids])).map((d) => d._id));
    const gone = uids.filter((uid) => !live.has(uid));
    await this.index.remove(gone);
    return gone.length;
  }

  /** Recomputes the whole index from the content store: every live object's references, nothing else. */
  async rebuild(): Promise<{ sources: number; references: number }> {
    const root = await this.repo.byPath('/');
    const docs = root ? [root, ...(await this.repo.descendants(root._id))] : [];
    const live = new Set<string>();
    let references = 0;
    for (const doc of docs) {
      live.add(doc._id);
      const refs = this.extract(doc);
      references += refs.length;
      await this.index.put(doc._id, doc.version, refs, true);
    }
    await this.index.remove((await this.index.sources()).filter((uid) => !live.has(uid)));
    return { sources: docs.length, references };
  }
}
