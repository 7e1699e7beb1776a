/**
 * `@history`: an object's creation, versions and workflow transitions, newest first (specification: History
 * entry; addendum §8), one version as it was, and reverting to one.
 */
import {
  encodeComponent,
  findTransition,
  hasPermission,
  notFound,
  UNTRANSLATED,
  urlOf,
  workflowState,
  type Translate,
} from '@cms/shared';
import { accessOf } from '../content/access';
import type { Caller } from '../content/caller';
import type { ContentDoc, VersionRecord } from '../content/model';
import { contentRestored, INITIAL_VERSION_NOTE, type VersionKeeper } from './versions';
import type { ContentWriter } from '../content/write-path';

/** `actor` of an entry: the user, with the name identity knows. */
export interface HistoryActor {
  '@id': string;
  fullname: string;
  id: string;
  username: null;
}

export type HistoryEntry = Record<string, unknown> & { time: string; actor: HistoryActor };

/** Date-times of history entries end in `Z` (specification: History entry). */
function historyTime(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

export class HistoryCommands {
  constructor(
    private readonly versions: VersionKeeper,
    private readonly writer: ContentWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The entries of an object, newest first; `names` gives the full names of the actors (user id → name).
   * At the same instant a version comes before the workflow entry (the creation and its initial version).
   * `translate` gives the platform's words (action, state and transition titles, the initial version's note) in
   * the caller's language.
   */
  async list(
    doc: ContentDoc,
    caller: Caller,
    names: ReadonlyMap<string, string>,
    translate: Translate = UNTRANSLATED.translate,
  ): Promise<HistoryEntry[]> {
    const actor = (id: string): HistoryActor => ({
      '@id': `${caller.publicUrl}/@users/${encodeComponent(id)}`,
      fullname: names.get(id) || id,
      id,
      username: null,
    });
    const objectUrl = urlOf(caller.publicUrl, doc.path ?? '/');
    const instants = new Map<HistoryEntry, string>();
    const at = (entry: HistoryEntry, iso: string) => (instants.set(entry, iso), entry);
    const mayRevert = hasPermission(caller.principal, 'Modify portal content', accessOf(doc));
    const versions: HistoryEntry[] = (await this.versions.versionsOf(doc)).map((record) =>
      at(
        {
          '@id': `${objectUrl}/@history/${record.version}`,
          action: translate('Edited'),
          actor: actor(record.actor),
          comments: record.comments === INITIAL_VERSION_NOTE ? translate(record.comments) : record.comments,
          may_revert: mayRevert,
          time: historyTime(record.time),
          transition_title: translate('Edited'),
          type: 'versioning',
          version: record.version,
        },
        record.time,
      ),
    );
    const history = doc.workflow_history ?? [];
    const workflow: HistoryEntry[] = history.map((entry) => {
      const created = entry.action === null;
      const title = created ? translate('Create') : translate(findTransition(entry.action!)?.title ?? entry.action!);
      return at(
        {
          action: created ? translate('Create') : entry.action,
          actor: actor(entry.actor),
          comments: entry.comments,
          review_state: entry.review_state,
          state_title: translate(workflowState(entry.review_state).title),
          time: historyTime(entry.time),
          transition_title: title,
          // Addendum §8: the creation entry has no type.
          type: created ? null : 'workflow',
        },
        entry.time,
      );
    });
    // An object without a workflow still has its creation.
    if (!history.some((entry) => entry.action === null)) {
      workflow.push(
        at(
          {
            action: translate('Create'),
            actor: actor(doc.creators[0] ?? ''),
            comments: '',
            time: historyTime(doc.created),
            transition_title: translate('Create'),
            type: null,
          },
          doc.created,
        ),
      );
    }
    // Sorted on the stored instants (the shown ones are cut to the second), the later first; at one instant a
    // version before the transition it came with, and each kind in its own order.
    const entries = [...versions, ...workflow].map((entry, index) => ({ entry, index }));
    const rank = (entry: HistoryEntry) => (entry.type === 'versioning' ? 0 : 1);
    entries.sort(
      (a, b) =>
        instants.get(b.entry)!.localeCompare(instants.get(a.entry)!) ||
        rank(a.entry) - rank(b.entry) ||
        b.index - a.index,
    );
    return entries.map(({ entry }) => entry);
  }

  /** Every version of the object, oldest first (an export writes them). */
  versionsOf(doc: ContentDoc): Promise<VersionRecord[]> {
    return this.versions.versionsOf(doc);
  }

  /** The actors of an object's history, for their names. */
  async actorsOf(doc: ContentDoc): Promise<string[]> {
    const versions = await this.versions.versionsOf(doc);
    const ids = [...versions.map((v) => v.actor), ...(doc.workflow_history ?? []).map((e) => e.actor), ...doc.creators];
    return [...new Set(ids.filter(Boolean))];
  }

  /** One version of the object; 404 when it has none of that number. */
  async version(doc: ContentDoc, version: number, caller: Caller): Promise<VersionRecord> {
    const record = await this.versions.versionOf(doc, version);
    if (!record) throw notFound(`No version ${version} of ${urlOf(caller.publicUrl, doc.path ?? '/')}`);
    return record;
  }

  /** The object as it was at `record`: its current identity and place, that version's content. */
  asOf(doc: ContentDoc, record: VersionRecord): ContentDoc {
    const { title, description, effective, expires, fields } = record.content;
    return { ...doc, title, description, effective, expires, fields };
  }

  /** Sets the object back to one of its versions: a write of its own, which makes a new version. */
  /**
   * Keeps a version of the object as it is now with `comment` (the content rules' Versioning action), changed
   * or not since the last one; false for an object that keeps no versions.
   */
  async keepVersion(doc: ContentDoc, comment: string, caller: Caller): Promise<boolean> {
    if (!this.versions.keeps(doc)) return false;
    await this.writer.write(
      doc,
      {
        kind: 'version',
        permission: 'Modify portal content',
        note: comment,
        plan: () => ({ set: {}, events: () => [] }),
      },
      caller,
    );
    return true;
  }

  async revert(doc: ContentDoc, version: number, caller: Caller): Promise<ContentDoc> {
    const record = await this.version(doc, version, caller);
    const written = await this.writer.write(
      doc,
      {
        kind: 'revert',
        permission: 'Modify portal content',
        note: `Restored from revision ${version}`,
        plan: () => contentRestored(record.content, this.now().toISOString(), caller.requestId),
      },
      caller,
    );
    return written.after;
  }
}
