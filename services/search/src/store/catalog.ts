import { DuplicateKeyError, type Collection, type DocumentStore, type Logger } from '@cms/shared';
import { postgresStoreOf } from '@cms/shared/adapters';
import { pathParents, depthOf, REMOVED_VERSION, type CatalogEntry } from '../domain/catalog-entry';
import {
  COMMENT_TYPE,
  commentAllowed,
  conversationColumns,
  conversationPath,
  type CommentHost,
} from '../domain/comment-entry';
import type { CatalogQuery } from '../domain/search-query';
import { WordListSearch, type CatalogSearch, type SearchPage } from './catalog-search';
import { PostgresTextSearch } from './postgres-text-search';

/** Entries read for the query builder's vocabularies (a term only beyond them is not offered). */
const MAX_TERM_ENTRIES = 50_000;

/**
 * The search catalog: entries kept through the store port on every engine; searched by the engine's own means
 * (`CatalogSearch`: word lists on the embedded engine and MongoDB, full-text search on PostgreSQL).
 */
export class Catalog {
  readonly entries: Collection<CatalogEntry>;
  private readonly searcher: CatalogSearch;

  constructor(store: DocumentStore, log?: Logger) {
    this.entries = store.collection<CatalogEntry>('catalog');
    const postgres = postgresStoreOf(store);
    this.searcher = postgres ? new PostgresTextSearch(postgres, this.entries, log) : new WordListSearch(this.entries);
  }

  /** How text is searched: `words` (word lists) or `postgres` (PostgreSQL's full-text search). */
  get textEngine(): CatalogSearch['engine'] {
    return this.searcher.engine;
  }

  async ensureIndexes(): Promise<void> {
    await this.entries.createIndex({ path_parents: 1 });
    await this.entries.createIndex({ path: 1 });
    await this.entries.createIndex({ allowed: 1 });
    // The sorts listings ask for most (newest first, by title): a page is read by walking the index in order
    // rather than sorting every match (the embedded engine's fast path; MongoDB's index scan).
    await this.entries.createIndex({ modified: 1 });
    await this.entries.createIndex({ effective: 1 });
    await this.entries.createIndex({ sortable_title: 1 });
    // Filters listings and collections ask for most: a smaller set of candidates than `allowed`.
    await this.entries.createIndex({ portal_type: 1 });
    await this.entries.createIndex({ review_state: 1 });
    // Comments only: a conversation's entries, found from its content object.
    await this.entries.createIndex({ content_uid: 1 }, { sparse: true });
    // Tombstones only: the purge finds them without a scan.
    await this.entries.createIndex({ deleted: 1 }, { sparse: true });
    await this.searcher.ensureIndexes();
  }

  /** The version the catalog holds for `uid` (REMOVED_VERSION for a tombstone), 0 when none. */
  async versionOf(uid: string): Promise<number> {
    const found = await this.entries.findOne({ _id: uid }, { projection: { version: 1 } });
    return found?.version ?? 0;
  }

  /**
   * Writes an entry unless the catalog already holds this version or a newer
   * one (events arrive at least once and possibly out of order). Returns
   * whether it was written.
   */
  async put(entry: CatalogEntry): Promise<boolean> {
    return this.upsert(entry, { version: { $lt: entry.version } });
  }

  /**
   * A reindex's write: the entry as the content store has it, over whatever the catalog held before the reindex
   * began (`since`), a newer version or a tombstone included; only what an event wrote since then is kept when it
   * is newer. Returns whether it was written.
   */
  async refresh(entry: CatalogEntry, since: string): Promise<boolean> {
    return this.upsert(entry, { $or: [{ version: { $lt: entry.version } }, { indexed_at: { $lt: since } }] });
  }

  private async upsert(entry: CatalogEntry, unless: Record<string, unknown>): Promise<boolean> {
    try {
      const { _id, ...fields } = entry;
      const result = await this.entries.updateOne(
        { _id, ...unless },
        { $set: fields, $unset: { deleted: '' } },
        { upsert: true },
      );
      return result.matchedCount + (result.upsertedId ? 1 : 0) > 0;
    } catch (error) {
      // The entry exists and is to be kept: nothing to do.
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Marks objects removed; a removal wins over any later-arriving older event. The tombstone is kept until
   * `purgeTombstones` (a late event for a removed object is dropped anyway: content no longer confirms it).
   */
  async markRemoved(uids: string[], at: string): Promise<void> {
    for (const uid of uids) {
      await this.entries.updateOne(
        { _id: uid },
        { $set: { deleted: true, version: REMOVED_VERSION, indexed_at: at }, $unset: { words: '', path_parents: '' } },
        { upsert: true },
      );
    }
  }

  /** The live `Discussion Item` entries of one content object. */
  conversation(contentUid: string): Promise<CatalogEntry[]> {
    return this.entries.find(
      { content_uid: contentUid, deleted: { $ne: true } },
      { projection: { _id: 1, id: 1, review_state: 1, created: 1, creators: 1, path: 1, allowed: 1 } },
    );
  }

  /**
   * Keeps a conversation in step with its content object: each comment entry under the object's current path and
   * guarded by who may view it now, and the object's conversation columns. Nothing is written for an object
   * without comments, unless `columns` asks for its columns all the same (a comment event: the last one may be gone).
   */
  async syncConversation(host: CommentHost, columns = false): Promise<void> {
    // One at a time per object in this process: events are handled concurrently, and a recount that read fewer
    // comments must not land after one that read more.
    const before = this.syncing.get(host._id) ?? Promise.resolve();
    const run = before.then(() => this.syncConversationNow(host, columns));
    const settled = run.catch(() => undefined);
    this.syncing.set(host._id, settled);
    void settled.then(() => {
      if (this.syncing.get(host._id) === settled) this.syncing.delete(host._id);
    });
    return run;
  }

  private readonly syncing = new Map<string, Promise<void>>();

  private async syncConversationNow(host: CommentHost, columns: boolean): Promise<void> {
    const comments = await this.conversation(host._id);
    for (const comment of comments) {
      const path = conversationPath(host.path, comment.id);
      const allowed = commentAllowed(comment.review_state ?? '', host);
      if (path === comment.path && sameSet(allowed, comment.allowed)) continue;
      await this.entries.updateOne(
        { _id: comment._id, deleted: { $ne: true } },
        { $set: { path, path_parents: pathParents(path), depth: depthOf(path), allowed } },
      );
    }
    if (comments.length === 0 && !columns) return;
    // Only an existing content entry: an upsert here would make an entry without a version, which content's own
    // (versioned) writes could never replace.
    await this.entries.updateOne({ _id: host._id, deleted: { $ne: true } }, { $set: conversationColumns(comments) });
  }

  /** Marks removed the comments of these content objects (removed with them). */
  async removeConversations(contentUids: string[], at: string): Promise<void> {
    if (contentUids.length === 0) return;
    const comments = await this.entries.find(
      { content_uid: { $in: contentUids }, deleted: { $ne: true } },
      { projection: { _id: 1 } },
    );
    await this.markRemoved(
      comments.map((c) => c._id),
      at,
    );
  }

  /** Deletes the tombstones written before `before`; returns how many. */
  async purgeTombstones(before: string): Promise<number> {
    const { deletedCount } = await this.entries.deleteMany({ deleted: true, indexed_at: { $lt: before } });
    return deletedCount;
  }

  /** One batch of the matches and how many match; with `limit`, only the first `limit` matches count. */
  search(query: CatalogQuery, limit = query.limit): Promise<SearchPage> {
    return this.searcher.search(query, limit);
  }

  /** The path of a live entry, or null. */
  async pathOf(uid: string): Promise<string | null> {
    const found = await this.entries.findOne({ _id: uid, deleted: { $ne: true } }, { projection: { path: 1 } });
    return found?.path ?? null;
  }

  /**
   * A content object as a comment's host, from its live entry when written at or after `since`: a resumed
   * reindex's objects scanned before it was cut short (their entries are the store's since it began). Else null.
   */
  async hostWrittenSince(uid: string, since: string): Promise<CommentHost | null> {
    const found = await this.entries.findOne(
      { _id: uid, deleted: { $ne: true }, indexed_at: { $gte: since } },
      { projection: { _id: 1, path: 1, title: 1, allowed: 1, language: 1 } },
    );
    if (!found) return null;
    return {
      _id: found._id,
      path: found.path,
      title: found.title,
      allowed: found.allowed,
      language: found.language ?? '',
    };
  }

  /**
   * The types (name → title) and tags of what a viewer holding `viewerTokens` may see, for the query builder's
   * vocabularies; read from at most `MAX_TERM_ENTRIES` entries.
   */
  async distinctTerms(viewerTokens: string[]): Promise<{ types: Map<string, string>; subjects: Set<string> }> {
    const all = await this.entries.find(
      { deleted: { $ne: true }, allowed: { $in: viewerTokens } },
      { projection: { portal_type: 1, type_title: 1, subjects: 1 }, limit: MAX_TERM_ENTRIES },
    );
    const types = new Map<string, string>();
    const subjects = new Set<string>();
    for (const entry of all) {
      types.set(entry.portal_type, entry.type_title);
      for (const subject of entry.subjects ?? []) subjects.add(subject);
    }
    return { types, subjects };
  }

  /**
   * Live entries last written before `before` and not in `seen`: what a reindex found gone from the content
   * store. Marked removed at `at`; returns how many.
   */
  /**
   * Marks removed the live entries written before `before` that a reindex did not see; answers how many, and the
   * content objects that lost comments (their conversation columns need a recount).
   */
  async removeStale(seen: Set<string>, before: string, at: string): Promise<{ count: number; hosts: string[] }> {
    const candidates = await this.entries.find(
      { deleted: { $ne: true }, indexed_at: { $lt: before } },
      { projection: { _id: 1, portal_type: 1, content_uid: 1 } },
    );
    const stale = candidates.filter((c) => !seen.has(c._id));
    await this.markRemoved(
      stale.map((c) => c._id),
      at,
    );
    const hosts = stale.flatMap((c) => (c.portal_type === COMMENT_TYPE && c.content_uid ? [c.content_uid] : []));
    return { count: stale.length, hosts: [...new Set(hosts)] };
  }
}

function sameSet(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((x) => b.includes(x));
}
