/**
 * Aliases (`@aliases`): other site-relative paths an object answers to. Moves and renames leave the old path as
 * one; `@aliases` adds them by hand and removes them. A path is an alias of one object at most, and never the
 * path of an object.
 */
import { badRequest, clip, type FieldError } from '@cms/shared';
import type { Caller } from '../content/caller';
import type { AliasInfo, ContentDoc } from '../content/model';
import type { ContentWriter } from '../content/write-path';

/** Longest alias path taken. */
export const MAX_ALIAS_PATH = 1000;

/** What the alias rules need of the store; implemented in store/. */
export interface AliasIndex {
  /** The live object that has `path` among its aliases, or null. */
  ownerOf(path: string): Promise<ContentDoc | null>;
  /** The live object at `path`, or null. */
  byPath(path: string): Promise<ContentDoc | null>;
  /** Every live object with aliases. */
  withAliases(): Promise<ContentDoc[]>;
}

/** An alias of the site-wide list: its path, the object's path, when and how it was made. */
export interface AliasEntry extends AliasInfo {
  redirectTo: string;
}

export interface AliasFilter {
  /** Alias paths that start with this. */
  q?: string;
  manual?: boolean;
  /** Made at or after / before this ISO time. */
  start?: string;
  end?: string;
}

/** `/a//b/` → `/a/b`; null for a path no alias may have (`.`, `..`, `@`/`++` segments, the root). */
export function normalizedAliasPath(raw: string): string | null {
  const segments = raw.trim().split('/').filter(Boolean);
  if (!raw.trim().startsWith('/') || segments.length === 0) return null;
  if (segments.some((s) => s === '.' || s === '..' || s.startsWith('@') || s.startsWith('++') || s.startsWith('_')))
    return null;
  const path = '/' + segments.join('/');
  return path.length <= MAX_ALIAS_PATH ? path : null;
}

/** The object's aliases with their records; an alias from before records were kept shows its object's last change. */
export function aliasInfoOf(doc: ContentDoc): AliasInfo[] {
  const info = new Map((doc.alias_info ?? []).map((i) => [i.path, i]));
  return (doc.aliases ?? []).map((path) => info.get(path) ?? { path, datetime: doc.modified, manual: false });
}

/** The alias members of `doc` with `path` added (an automatic alias when a move or rename leaves `path`). */
export function withAlias(doc: ContentDoc, path: string, datetime: string, manual: boolean) {
  return withAliases(doc, [{ path, datetime, manual }]);
}

function withAliases(doc: ContentDoc, added: AliasInfo[]): Pick<ContentDoc, 'aliases' | 'alias_info'> {
  const kept = aliasInfoOf(doc).filter((i) => !added.some((a) => a.path === i.path));
  const all = [...kept, ...added];
  return { aliases: all.map((i) => i.path), alias_info: all };
}

function withoutAliases(doc: ContentDoc, removed: ReadonlySet<string>): Pick<ContentDoc, 'aliases' | 'alias_info'> {
  const all = aliasInfoOf(doc).filter((i) => !removed.has(i.path));
  return { aliases: all.map((i) => i.path), alias_info: all };
}

export interface NewAlias {
  path: string;
  /** When it was made (the site-wide form may give it); now otherwise. */
  datetime?: string;
  manual?: boolean;
}

/** The object's aliases as entries of a listing (each leads to the object's path). */
export function aliasEntriesOf(doc: ContentDoc): AliasEntry[] {
  return aliasInfoOf(doc).map((info) => ({ ...info, redirectTo: doc.path ?? '/' }));
}

/** An alias as `@aliases` lists it, on an object and on the site root alike (the original platform's members). */
export function aliasListItem(entry: AliasEntry) {
  return { datetime: entry.datetime, manual: entry.manual, path: entry.path, 'redirect-to': entry.redirectTo };
}

/** Whether an alias passes a listing's filters (each one absent passes all). */
export function aliasMatches(alias: AliasInfo, filter: AliasFilter): boolean {
  return (
    (filter.q === undefined || alias.path.startsWith(filter.q)) &&
    (filter.manual === undefined || alias.manual === filter.manual) &&
    (filter.start === undefined || alias.datetime >= filter.start) &&
    (filter.end === undefined || alias.datetime < filter.end)
  );
}

export class AliasCommands {
  constructor(
    private readonly index: AliasIndex,
    private readonly writer: ContentWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Adds aliases to `doc`; every one is checked first, and none is added when one is refused (400). */
  async add(doc: ContentDoc, aliases: NewAlias[], caller: Caller): Promise<void> {
    const at = this.now().toISOString();
    const added: AliasInfo[] = [];
    const errors: FieldError[] = [];
    for (const [i, alias] of aliases.entries()) {
      const problem = await this.problemWith(alias.path, doc);
      if (problem) errors.push({ field: `items.${i}.path`, message: problem });
      else
        added.push({
          path: normalizedAliasPath(alias.path)!,
          datetime: alias.datetime ?? at,
          manual: alias.manual ?? true,
        });
    }
    if (errors.length) throw badRequest(`Aliases not added: ${errors.map((e) => e.message).join('; ')}`, errors);
    if (!added.length) return;
    await this.writer.write(
      doc,
      {
        kind: 'update',
        permission: 'Modify portal content',
        plan: (current) => ({ set: withAliases(current, added), events: () => [] }),
      },
      caller,
    );
  }

  /** Removes aliases of `doc`; a path that is not one of them is 400 and nothing is removed. */
  async remove(doc: ContentDoc, paths: string[], caller: Caller): Promise<void> {
    const own = new Set(doc.aliases ?? []);
    const normalized = paths.map((p) => normalizedAliasPath(p) ?? p);
    const errors = normalized
      .map((path, i) => ({ field: `items.${i}.path`, message: `${clip(path)} is not an alias of this object` }))
      .filter((_, i) => !own.has(normalized[i]));
    if (errors.length) throw badRequest(`Aliases not removed: ${errors.map((e) => e.message).join('; ')}`, errors);
    const removed = new Set(normalized);
    await this.writer.write(
      doc,
      {
        kind: 'update',
        permission: 'Modify portal content',
        plan: (current) =>
          (current.aliases ?? []).some((p) => removed.has(p))
            ? { set: withoutAliases(current, removed), events: () => [] }
            : null,
      },
      caller,
    );
  }

  /**
   * Site-wide: adds each alias to the object its `redirectTo` names (400 when there is none; nothing is added).
   * With `lines` (a CSV import), a refusal names the line of the file each alias came from.
   */
  async addSiteWide(
    aliases: (NewAlias & { redirectTo: string })[],
    caller: Caller,
    { lines }: { lines?: readonly number[] } = {},
  ): Promise<void> {
    const targets = new Map<string, { doc: ContentDoc; aliases: NewAlias[] }>();
    const errors: FieldError[] = [];
    const where = (i: number, member: string) => (lines ? `line ${lines[i]}` : `items.${i}.${member}`);
    for (const [i, alias] of aliases.entries()) {
      const targetPath = normalizedAliasPath(alias.redirectTo) ?? (alias.redirectTo.trim() === '/' ? '/' : null);
      const target = targetPath ? await this.index.byPath(targetPath) : null;
      if (!target) {
        errors.push({ field: where(i, 'redirect-to'), message: `no object at ${clip(alias.redirectTo)}` });
        continue;
      }
      const problem = await this.problemWith(alias.path, target);
      if (problem) errors.push({ field: where(i, 'path'), message: problem });
      const entry = targets.get(target._id) ?? { doc: target, aliases: [] };
      entry.aliases.push(alias);
      targets.set(target._id, entry);
    }
    if (errors.length)
      throw badRequest(
        `Aliases not added: ${clip(errors.map((e) => `${e.field}: ${e.message}`).join('; '), 1000)}`,
        errors,
      );
    for (const { doc, aliases: own } of targets.values()) await this.add(doc, own, caller);
  }

  /** Site-wide: removes each alias from the object that has it (400 for a path that is no alias; nothing removed). */
  async removeSiteWide(paths: string[], caller: Caller): Promise<void> {
    const owners = new Map<string, { doc: ContentDoc; paths: string[] }>();
    const errors: FieldError[] = [];
    for (const [i, raw] of paths.entries()) {
      const path = normalizedAliasPath(raw);
      const owner = path ? await this.index.ownerOf(path) : null;
      if (!owner || !path) {
        errors.push({ field: `items.${i}.path`, message: `${clip(raw)} is not an alias` });
        continue;
      }
      const entry = owners.get(owner._id) ?? { doc: owner, paths: [] };
      entry.paths.push(path);
      owners.set(owner._id, entry);
    }
    if (errors.length) throw badRequest(`Aliases not removed: ${errors.map((e) => e.message).join('; ')}`, errors);
    for (const { doc, paths: own } of owners.values()) await this.remove(doc, own, caller);
  }

  /** The site-wide list, sorted by alias path, filtered. */
  async list(filter: AliasFilter): Promise<AliasEntry[]> {
    const docs = await this.index.withAliases();
    return docs
      .flatMap(aliasEntriesOf)
      .filter((e) => aliasMatches(e, filter))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Why `raw` cannot become an alias of `doc`, or null. */
  private async problemWith(raw: string, doc: ContentDoc): Promise<string | null> {
    const path = normalizedAliasPath(raw);
    if (!path) return `${clip(raw)} is not a site path (it starts with / and has no ., .., @ or ++ segments)`;
    if (await this.index.byPath(path)) return `${clip(path)} is the path of an object`;
    const owner = await this.index.ownerOf(path);
    if (owner && owner._id !== doc._id) return `${clip(path)} is already an alias of another object`;
    return null;
  }
}
