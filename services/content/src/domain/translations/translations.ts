/**
 * Multilingual sites (issue 15): the language root folders, and translation groups — the objects that are
 * translations of each other. An object's group is stored on the object itself (`translation_group`, written
 * through the write path, so it moves, renames and reverts with it); the groups as readers see them are an
 * index kept by the translations consumer from content events (store/translation-groups.ts), rebuilt from
 * the objects by `rebuild`. A group holds at most one object per language: a clash (a language changed to
 * one the group has) is resolved by unlinking the object written last.
 */
import { randomUUID } from 'node:crypto';
import {
  badRequest,
  callerTokens,
  clip,
  conflict,
  urlOf,
  type Logger,
  type Principal__Output,
  type RebuildCheckpoints,
} from '@cms/shared';
import { accessFields } from '../content/access';
import { addedEvent, modifiedEvent } from '../content/content-events';
import { childPath, type ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import type { ContentTypeDef } from '../types';
import { SYSTEM_WRITE, type ContentWriter, type DeferredFlushes, type WriteAuthor } from '../content/write-path';

/** The type of language root folders, named as the reference names it. */
export const LANGUAGE_ROOT_TYPE = 'LRF';

const LANGUAGE_ROOT_DEF: ContentTypeDef = {
  name: LANGUAGE_ROOT_TYPE,
  title: 'Language Root Folder',
  description: 'The root folder of one language of a multilingual site.',
  folderish: true,
  layout: 'folder_listing',
  layouts: ['folder_listing', 'listing_view', 'summary_view', 'tabular_view'],
  workflow: true,
  // Made by the language panel only.
  addable: false,
  // Blocks as the original's Volto profile gives its language roots: Volto shows a folder without them through
  // the type's schema, which anonymous visitors may not read (`@types` answers them 401), so an empty page.
  behaviors: ['cms.dublincore', 'cms.excludefromnavigation', 'cms.allowdiscussion', 'blocks'],
  schema: [],
};

/** A new language root's page: its title. JSON fields are stored as text (fieldsAfter). */
function languageRootBlocks(): { blocks: string; blocks_layout: string } {
  const title = randomUUID();
  return {
    blocks: JSON.stringify({ [title]: { '@type': 'title' } }),
    blocks_layout: JSON.stringify({ items: [title] }),
  };
}

/**
 * Adds the language root folder to the site's types: content's own type (made by the language panel only), kept
 * whatever definitions config sends, so it is not among the types config edits.
 */
export function withLanguageRootType<T extends { replace(definitions: readonly ContentTypeDef[]): void }>(
  types: T,
  initial: readonly ContentTypeDef[],
): T {
  const replace = types.replace.bind(types);
  types.replace = (definitions) =>
    replace([...definitions.filter((def) => def.name !== LANGUAGE_ROOT_TYPE), LANGUAGE_ROOT_DEF]);
  types.replace(initial);
  return types;
}

/** A language's own name, capitalized (`Deutsch`, `Español`): the title of its root folder. */
export function languageTitle(code: string): string {
  let name = code;
  try {
    name = new Intl.DisplayNames([code], { type: 'language', fallback: 'code' }).of(code) ?? code;
  } catch {
    // Not a well-formed language tag: its code is its name.
  }
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
}

/** One object's entry in the translation index. */
export interface GroupMember {
  /** The object's UID. */
  _id: string;
  /** Its translation group; null once unlinked. */
  group: string | null;
  language: string;
  /** The content version the entry was taken from. */
  version: number;
}

/** The translation groups as the consumer keeps them (store/translation-groups.ts). */
export interface TranslationIndex {
  member(uid: string): Promise<GroupMember | null>;
  /** The members of a group, by language. */
  group(group: string): Promise<GroupMember[]>;
  /** Stores the entry unless one at the same or a later version is stored; true when stored. */
  put(member: GroupMember): Promise<boolean>;
  remove(uids: string[]): Promise<void>;
  /** Every entry with a group, by UID. */
  all(): Promise<GroupMember[]>;
  replaceAll(members: GroupMember[]): Promise<void>;
}

/** The languages the site is translatable into (the config service's `cms.available_languages`). */
export interface SiteLanguages {
  available(requestId: string): Promise<string[]>;
}

/** Every live object, for a rebuild (the store's scan). */
export interface ContentScan {
  /** In UID order; only the objects after `afterUid` when given (a rebuild resumed). */
  scan(pageSize: number, afterUid?: string): AsyncIterable<ContentDoc>;
  /** The live objects with a translation group whose UID is `uid` or sorts before it. */
  linkedUpTo(uid: string): Promise<ContentDoc[]>;
}

/** Where a rebuild cut short stands (`RebuildCheckpoints`, kept in content's store). */
export type TranslationsCheckpoints = Pick<RebuildCheckpoints, 'load' | 'save' | 'clear'>;

/** The checkpoint is saved after this many objects read (and when the rebuild stops short). */
const CHECKPOINT_EVERY = 500;

/** What `@translations` answers. */
export interface TranslationLinks {
  '@id': string;
  items: { '@id': string; language: string }[];
  root: Record<string, string>;
}

/** The site is multilingual once two or more languages are available (addendum §3). */
export function isMultilingual(languages: readonly string[]): boolean {
  return languages.length >= 2;
}

function languageOf(doc: ContentDoc): string {
  const value = doc.fields?.language;
  return typeof value === 'string' ? value : '';
}

/** The entry the index holds for an object as stored. */
export function memberOf(doc: ContentDoc): GroupMember {
  return { _id: doc._id, group: doc.translation_group ?? null, language: languageOf(doc), version: doc.version };
}

/** Of several objects of one language in one group, the one that leaves it: the one written last. */
function leaverOf(clashing: ContentDoc[]): ContentDoc {
  return [...clashing].sort((a, b) => a.modified.localeCompare(b.modified) || a._id.localeCompare(b._id))[
    clashing.length - 1
  ];
}

export interface TranslationsOptions {
  repo: ContentRepository;
  writer: ContentWriter;
  index: TranslationIndex;
  languages: SiteLanguages;
  /** Resolves once the consumer has handled the events already published (read-your-writes); false: timed out. */
  drained: () => Promise<boolean>;
  log: Logger;
  /** The creator of language roots. */
  admin: string;
  now?: () => Date;
}

export class Translations {
  constructor(private readonly options: TranslationsOptions) {}

  /** The available languages, or 400 when the site is not multilingual. */
  async requireMultilingual(requestId: string): Promise<string[]> {
    const languages = await this.options.languages.available(requestId);
    if (!isMultilingual(languages)) {
      throw badRequest(
        'Translations need a multilingual site: make two or more languages available in the language control panel',
      );
    }
    return languages;
  }

  async multilingual(requestId: string): Promise<boolean> {
    return isMultilingual(await this.options.languages.available(requestId));
  }

  /** Makes a root folder at `/<code>` for each language that has none; answers their paths. Idempotent. */
  async ensureRoots(languages: string[], requestId: string): Promise<string[]> {
    const { repo, writer, log } = this.options;
    const site = await repo.byPath('/');
    if (!site) throw new Error('the site root is missing');
    const paths: string[] = [];
    for (const code of languages) {
      const path = childPath('/', code);
      paths.push(path);
      const existing = await repo.byPath(path);
      if (existing) {
        if (existing.portal_type !== LANGUAGE_ROOT_TYPE) {
          log.warn({ requestId, path, portalType: existing.portal_type }, 'language root path taken by other content');
        }
        continue;
      }
      const root = this.languageRoot(site, code, await repo.takeChildPosition(site._id));
      // A concurrent panel write may have made it meanwhile: either root is fine.
      if (
        await writer.insert(
          { kind: 'create', doc: root, events: [addedEvent(root, requestId)], container: null },
          SYSTEM_WRITE,
        )
      ) {
        log.info({ requestId, path, language: code }, 'language root folder created');
      }
    }
    return paths;
  }

  private languageRoot(site: ContentDoc, code: string, position: number): ContentDoc {
    const at = (this.options.now?.() ?? new Date()).toISOString();
    const title = languageTitle(code);
    const doc: ContentDoc = {
      _id: randomUUID().replace(/-/g, ''),
      path: childPath('/', code),
      id: code,
      portal_type: LANGUAGE_ROOT_TYPE,
      parent_uid: site._id,
      ancestors: [...site.ancestors, site._id],
      position,
      next_position: 0,
      title,
      description: '',
      created: at,
      modified: at,
      creators: [this.options.admin],
      // Visible to all, as the reference's language roots are.
      review_state: 'published',
      version: 1,
      effective: null,
      expires: null,
      fields: { language: code, exclude_from_nav: true, ...languageRootBlocks() },
      local_roles: [],
      workflow_history: [
        { action: null, actor: this.options.admin, comments: '', review_state: 'published', time: at },
      ],
    };
    Object.assign(doc, accessFields(doc, site));
    return doc;
  }

  /** The language root an object is in (itself, or its top-level ancestor), if any. */
  async languageRootOf(doc: ContentDoc): Promise<ContentDoc | null> {
    if (doc.portal_type === LANGUAGE_ROOT_TYPE) return doc;
    const top = doc.ancestors[1];
    if (!top) return null;
    const root = await this.options.repo.byUid(top);
    return root?.portal_type === LANGUAGE_ROOT_TYPE ? root : null;
  }

  /** The language new content inside `container` gets when none is given: its language root's (multilingual only). */
  async languageForNew(container: ContentDoc, requestId: string): Promise<string | undefined> {
    const root = await this.languageRootOf(container);
    if (!root || !(await this.multilingual(requestId))) return undefined;
    return languageOf(root) || undefined;
  }

  /**
   * Resolves what a client names as the object to link: a full URL of this site, a site path or a UID.
   * 400 when nothing is there.
   */
  async resolve(reference: string, publicUrl: string): Promise<ContentDoc> {
    const { repo } = this.options;
    let doc: ContentDoc | null = null;
    if (reference === publicUrl || reference.startsWith(`${publicUrl}/`)) {
      const path = sitePath(reference.slice(publicUrl.length).replace(/^\/\+\+api\+\+/, ''));
      doc = path === null ? null : await repo.byPath(path.replace(/\/+$/, '') || '/');
    } else if (reference.startsWith('/')) {
      doc = await repo.byPath(reference.replace(/\/+$/, '') || '/');
    } else if (/^[A-Za-z0-9_-]{1,64}$/.test(reference)) {
      doc = await repo.byUid(reference);
    }
    if (!doc) {
      throw badRequest(`No content at ${clip(reference)} to link as a translation`, [
        { field: 'id', message: 'no such content' },
      ]);
    }
    return doc;
  }

  /**
   * Links `target` into the translation group of `context` (201 of `POST @translations`, and `translation_of`
   * on a new object). 400 for the same language or an object without one, 409 when the group already has a
   * translation in the target's language. The index is written too, so the next read shows the link.
   */
  async link(context: ContentDoc, target: ContentDoc, author: WriteAuthor, requestId: string): Promise<void> {
    if (context._id === target._id) {
      throw badRequest('Content cannot be linked to itself', [{ field: 'id', message: 'same content' }]);
    }
    const group = context.translation_group;
    if (group && target.translation_group === group) return;
    await this.checkLink(context, languageOf(target), target._id);
    // Both sides are written: a caller who may not edit the target is refused before either is. The context's
    // permission is checked before: `@translations` declares it, a new object's `translation_of` calls checkLink.
    this.options.writer.checkPermission(target, 'Modify portal content', author);
    const linked = group ?? randomUUID();
    await this.setGroup(context, linked, author, requestId);
    await this.setGroup(target, linked, author, requestId);
  }

  /**
   * Whether an object in `language` may be linked to `context`: 400 when either has no language or both the
   * same, 409 when the context's group has a translation in that language already (other than `candidate`);
   * with `author`, 401/403 unless they may edit the context.
   */
  async checkLink(context: ContentDoc, language: unknown, candidate?: string, author?: WriteAuthor): Promise<void> {
    // Linking writes the context too: checked before anything else is written.
    if (author) this.options.writer.checkPermission(context, 'Modify portal content', author);
    const from = languageOf(context);
    const to = typeof language === 'string' ? language : '';
    if (!from || !to) {
      const which = !from ? 'The content translated' : 'The translation';
      throw badRequest(`${which} has no language; set its language first`, [{ field: 'language', message: 'unset' }]);
    }
    if (from === to) {
      throw badRequest(`The translation is in the same language (${clip(from, 20)}) as the content translated`, [
        { field: 'language', message: 'same language' },
      ]);
    }
    const group = context.translation_group;
    if (!group) return;
    await this.options.drained();
    const taken = (await this.options.index.group(group)).find(
      (m) => m.language === to && m._id !== context._id && m._id !== candidate,
    );
    const holder = taken ? await this.options.repo.byUid(taken._id) : null;
    if (holder && holder.translation_group === group && languageOf(holder) === to) {
      throw conflict(`The content is already linked to a translation in ${clip(to, 20)}`);
    }
  }

  /** Unlinks the translation in `language` from the group of `context` (`DELETE @translations`). */
  async unlink(context: ContentDoc, language: string, author: WriteAuthor, requestId: string): Promise<void> {
    await this.options.drained();
    const group = context.translation_group;
    const member = group
      ? (await this.options.index.group(group)).find((m) => m.language === language && m._id !== context._id)
      : undefined;
    const doc = member ? await this.options.repo.byUid(member._id) : null;
    if (!doc || doc.translation_group !== group) {
      throw badRequest(`The content has no translation in ${clip(language, 20)}`, [
        { field: 'language', message: 'not linked' },
      ]);
    }
    await this.setGroup(doc, null, author, requestId);
  }

  /** `@translations`: the other members of the context's group the caller may see, and the language roots. */
  async linksOf(
    context: ContentDoc,
    principal: Principal__Output | null,
    publicUrl: string,
    requestId = 'translations',
  ): Promise<TranslationLinks> {
    const { repo, index, log } = this.options;
    if (!(await this.options.drained())) log.warn({ uid: context._id }, 'translation index behind the content events');
    const url = urlOf(publicUrl, context.path ?? '/');
    const group = context.translation_group;
    const members = group ? (await index.group(group)).filter((m) => m._id !== context._id) : [];
    const tokens = callerTokens(principal);
    const docs = new Map((await repo.byUids(members.map((m) => m._id))).map((doc) => [doc._id, doc]));
    const items = members.flatMap((m) => {
      const doc = docs.get(m._id);
      // Only objects still in the group, which the caller may see, at their current paths.
      if (!doc?.path || doc.translation_group !== group || !(doc.allowed ?? []).some((t) => tokens.includes(t)))
        return [];
      return [{ '@id': urlOf(publicUrl, doc.path), language: languageOf(doc) }];
    });
    return { '@id': `${url}/@translations`, items, root: await this.roots(publicUrl, requestId) };
  }

  /** The root folder of each available language, as URLs, by language (one look-up per language). */
  async roots(publicUrl: string, requestId: string): Promise<Record<string, string>> {
    const languages = [...(await this.options.languages.available(requestId))].sort();
    const found = await Promise.all(languages.map((code) => this.options.repo.byPath(childPath('/', code))));
    return Object.fromEntries(
      languages.flatMap((code, i) => {
        const root = found[i];
        return root?.path && root.portal_type === LANGUAGE_ROOT_TYPE ? [[code, urlOf(publicUrl, root.path)]] : [];
      }),
    );
  }

  /**
   * `@translation-locator`: where a new translation of `context` into `language` goes — the translation of its
   * parent in that language if there is one the caller may see (a private one's path is not theirs to learn),
   * else that language's root folder (400 when there is none).
   */
  async locate(
    context: ContentDoc,
    language: string,
    principal: Principal__Output | null,
    publicUrl: string,
  ): Promise<string> {
    const { repo, index } = this.options;
    await this.options.drained();
    const parent = context.parent_uid ? await repo.byUid(context.parent_uid) : null;
    if (parent?.translation_group && parent.portal_type !== LANGUAGE_ROOT_TYPE) {
      const member = (await index.group(parent.translation_group)).find((m) => m.language === language);
      const translated = member ? await repo.byUid(member._id) : null;
      const tokens = callerTokens(principal);
      const visible = (translated?.allowed ?? []).some((token) => tokens.includes(token));
      if (translated?.path && translated.translation_group === parent.translation_group && visible) {
        return urlOf(publicUrl, translated.path);
      }
    }
    const root = await repo.byPath(childPath('/', language));
    if (!root?.path || root.portal_type !== LANGUAGE_ROOT_TYPE) {
      throw badRequest(`The site has no root folder for the language ${clip(language, 20)}`, [
        { field: 'target_language', message: 'not an available language' },
      ]);
    }
    return urlOf(publicUrl, root.path);
  }

  /**
   * Brings the index in line with one object as stored now (the consumer, for each event that names it):
   * its entry, then its group re-checked — a second object of its language in the group makes the one written
   * last leave it (said in the log).
   */
  async follow(uid: string, requestId: string): Promise<void> {
    const doc = await this.options.repo.byUid(uid);
    if (!doc) return;
    const member = memberOf(doc);
    const known = await this.options.index.member(uid);
    if (!known && member.group === null) return;
    await this.options.index.put(member);
    if (!member.group) return;
    // An unlink's event is published after the delivery is acked: the in-process bus hands it to this very
    // group, which is busy with this delivery until then. The outbox keeps it safe meanwhile.
    const flushes = this.options.writer.deferFlushes();
    await this.resolveClashes(member.group, requestId, flushes);
    void flushes.flush().catch((error: unknown) => {
      this.options.log.warn({ err: error, requestId }, 'unlink events left to the outbox sweep');
    });
  }

  /** Removed objects leave their groups (those content confirms are gone). */
  async forget(uids: string[]): Promise<void> {
    const live = new Set((await this.options.repo.byUids(uids)).map((doc) => doc._id));
    await this.options.index.remove(uids.filter((uid) => !live.has(uid)));
  }

  /** Runs a whole rebuild (rebuildSteps); answers how many objects are linked. */
  async rebuild(scan: ContentScan, requestId: string): Promise<number> {
    const steps = this.rebuildSteps(scan, 0, requestId);
    for (;;) {
      const step = await steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * Recomputes every group from the objects as stored (`npm run translations:rebuild`): clashes are resolved
   * as the consumer resolves them, then the index is replaced. Yields a step per object read (of `total`, the
   * count as it began); answers how many objects are linked. Stopped midway, the index is as it was, and the
   * objects unlinked by then stay so (what the next rebuild would do anyway).
   *
   * With `checkpoints`, a rebuild cut short is resumed by the next one: the scan goes on after the last UID read,
   * and the linked objects read before are read again as stored now by one query (only they make groups), so the
   * groups are those a rebuild in one go would make. A rebuild that ends clears its checkpoint.
   */
  async *rebuildSteps(
    scan: ContentScan,
    total: number,
    requestId: string,
    checkpoints?: TranslationsCheckpoints,
  ): AsyncGenerator<{ done: number; total: number; what: string }, number> {
    const resumed = checkpoints ? await checkpoints.load() : null;
    const now = () => (this.options.now?.() ?? new Date()).toISOString();
    const startedAt = resumed?.started_at ?? now();
    let read = resumed?.done ?? 0;
    let afterUid = resumed?.after_uid ?? '';
    let scanComplete = resumed?.scan_complete ?? false;
    const save = async () =>
      checkpoints?.save({
        started_at: startedAt,
        after_uid: afterUid,
        done: read,
        scan_complete: scanComplete,
        saved_at: now(),
      });
    const groups = new Map<string, ContentDoc[]>();
    const group = (doc: ContentDoc) => {
      if (doc.translation_group) groups.set(doc.translation_group, [...(groups.get(doc.translation_group) ?? []), doc]);
    };
    let ended = false;
    try {
      if (resumed) {
        yield { done: read, total: Math.max(total, read), what: `resuming the rebuild begun at ${startedAt}` };
        if (afterUid) for (const doc of await scan.linkedUpTo(afterUid)) group(doc);
      }
      if (!scanComplete) {
        let unsaved = 0;
        for await (const doc of scan.scan(500, afterUid)) {
          read += 1;
          afterUid = doc._id;
          group(doc);
          if (++unsaved === CHECKPOINT_EVERY) {
            await save();
            unsaved = 0;
          }
          // Objects added since the count make `read` pass it: the total grows with them.
          yield { done: read, total: Math.max(total, read), what: doc.path ?? '' };
        }
        scanComplete = true;
        await save();
      }
      yield { done: read, total: Math.max(total, read), what: 'clashes' };
      const members: GroupMember[] = [];
      for (const docs of groups.values()) {
        let kept = docs;
        for (;;) {
          const clash = clashIn(kept);
          if (!clash) break;
          const leaver = leaverOf(clash);
          await this.leave(leaver, requestId);
          kept = kept.filter((doc) => doc._id !== leaver._id);
        }
        members.push(...kept.map(memberOf));
      }
      members.sort((a, b) => a._id.localeCompare(b._id));
      yield { done: read, total: Math.max(total, read), what: 'index' };
      await this.options.index.replaceAll(members);
      await checkpoints?.clear();
      ended = true;
      return members.length;
    } finally {
      // Stopped short (cancelled, or failed): the next rebuild goes on from here (a new one that read nothing yet
      // leaves none). Best effort: when the store is what failed, the last periodic checkpoint stands.
      if (!ended && (resumed || read > 0)) await save().catch(() => undefined);
    }
  }

  private async resolveClashes(group: string, requestId: string, flushes: DeferredFlushes): Promise<void> {
    const { index, repo } = this.options;
    const members = await index.group(group);
    const docs = (await repo.byUids(members.map((m) => m._id))).filter((doc) => doc.translation_group === group);
    let kept = docs;
    for (;;) {
      const clash = clashIn(kept);
      if (!clash) return;
      const leaver = leaverOf(clash);
      await this.leave(leaver, requestId, flushes);
      kept = kept.filter((doc) => doc._id !== leaver._id);
    }
  }

  /** Unlinks an object that clashes with another of its language in its group. */
  private async leave(doc: ContentDoc, requestId: string, flushes?: DeferredFlushes): Promise<void> {
    this.options.log.warn(
      { requestId, uid: doc._id, group: doc.translation_group, language: languageOf(doc) },
      'translation group has two objects of one language: the one written last is unlinked',
    );
    await this.setGroup(doc, null, SYSTEM_WRITE, requestId, flushes);
  }

  /** Writes an object's group through the write path, then its index entry (the consumer applies the same). */
  private async setGroup(
    doc: ContentDoc,
    group: string | null,
    author: WriteAuthor,
    requestId: string,
    flushes?: DeferredFlushes,
  ): Promise<void> {
    const written = await this.options.writer.write(
      doc,
      {
        kind: 'update',
        permission: 'Modify portal content',
        plan: (current) => {
          if ((current.translation_group ?? null) === group) return null;
          return {
            set: group ? { translation_group: group } : {},
            unset: group ? undefined : ['translation_group'],
            events: (next) => [modifiedEvent(next, ['translation_group'], requestId)],
          };
        },
      },
      author,
      flushes,
    );
    if (written) await this.options.index.put(memberOf(written.after));
  }
}

/** The site path of a URL's path part (its segments decoded), or null when it is not well-formed. */
function sitePath(urlPath: string): string | null {
  try {
    return decodeURIComponent(urlPath.split(/[?#]/)[0]) || '/';
  } catch {
    return null;
  }
}

/** The objects of the first language that two or more objects of `docs` share, if any. */
function clashIn(docs: ContentDoc[]): ContentDoc[] | null {
  const byLanguage = new Map<string, ContentDoc[]>();
  for (const doc of docs) {
    const language = languageOf(doc);
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), doc]);
  }
  for (const [language, same] of [...byLanguage].sort(([a], [b]) => a.localeCompare(b))) {
    if (same.length > 1 && language) return same;
  }
  return null;
}
