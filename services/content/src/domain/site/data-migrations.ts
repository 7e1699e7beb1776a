/**
 * The content store's data migrations (`@upgrade`): each brings data written by an older release up to what the
 * current one writes, and raises the store's data version to its own. The store records the version its data is
 * at; a new site starts at the latest (nothing is pending). A dry run reports what a run would change and writes
 * nothing.
 */
import { modifiedEvent } from '../content/content-events';
import type { ContentDoc } from '../content/model';
import type { ContentRepository } from '../content/repository';
import { siteRootBlocks } from '../types';
import { SYSTEM_WRITE, type ContentWriter } from '../content/write-path';

export interface DataMigration {
  /** The data version the store is at once this has run (versions go up by one). */
  version: number;
  id: string;
  title: string;
  description: string;
  /** Applies the migration (or, with `dryRun`, only finds what it would change); answers report lines. */
  run(dryRun: boolean): Promise<string[]>;
}

/** Where the store's data version is kept; implemented in store/. */
export interface DataVersionStore {
  /** The recorded version, or null when none was recorded yet (data from before versions were kept: 0). */
  current(): Promise<number | null>;
  set(version: number): Promise<void>;
}

export interface UpgradeStatus {
  /** The version the data is at. */
  instance: number;
  /** The version this release's code writes. */
  fs: number;
  pending: DataMigration[];
}

export interface UpgradeRun {
  report: string;
  /** True when nothing is pending any more (after a dry run: when nothing was). */
  upgraded: boolean;
  versions: { instance: number; fs: number };
}

export class DataMigrations {
  private readonly migrations: DataMigration[];

  constructor(
    private readonly versions: DataVersionStore,
    migrations: DataMigration[],
  ) {
    this.migrations = [...migrations].sort((a, b) => a.version - b.version);
  }

  /** This release's migrations, oldest first. */
  get all(): readonly DataMigration[] {
    return this.migrations;
  }

  /** The version this release writes. */
  get latest(): number {
    return this.migrations.at(-1)?.version ?? 0;
  }

  /** At start: a site created by this start is at the latest version; data without a record stays at 0. */
  async initialize(newSite: boolean): Promise<void> {
    if (newSite && (await this.versions.current()) === null) await this.versions.set(this.latest);
  }

  async status(): Promise<UpgradeStatus> {
    const instance = (await this.versions.current()) ?? 0;
    return { instance, fs: this.latest, pending: this.migrations.filter((m) => m.version > instance) };
  }

  /** Runs the pending migrations in order; each raises the recorded version once it is done (not in a dry run). */
  async run(dryRun: boolean): Promise<UpgradeRun> {
    const { instance, fs, pending } = await this.status();
    const lines = [`Starting the migration from version: ${instance}${dryRun ? ' (dry run: nothing is written)' : ''}`];
    let reached = instance;
    for (const migration of pending) {
      lines.push(`Ran upgrade step: ${migration.title}`);
      for (const line of await migration.run(dryRun)) lines.push(`  ${line}`);
      if (!dryRun) await this.versions.set(migration.version);
      reached = migration.version;
    }
    lines.push(pending.length ? `Your data is now at version: ${reached}` : 'Nothing to upgrade.');
    if (dryRun) lines.push('Dry run: no changes were written.');
    return {
      report: lines.join('\n'),
      upgraded: dryRun ? pending.length === 0 : true,
      versions: { instance: dryRun ? instance : reached, fs },
    };
  }
}

/** This release's data migrations of the content store, for `@upgrade` and the `migrate` command alike. */
export function contentDataMigrations(repo: ContentRepository, writer: ContentWriter): DataMigration[] {
  return [siteRootBlocksMigration(repo, writer)];
}

/** Sites made before the site root had blocks: its front page shows nothing until it gets the default ones. */
export function siteRootBlocksMigration(repo: ContentRepository, writer: ContentWriter): DataMigration {
  const lacksBlocks = (root: ContentDoc) => !root.fields?.blocks;
  return {
    version: 1,
    id: 'site-root-blocks',
    title: 'Give the site root its front page blocks',
    description: 'A site root without blocks gets a title block and a text block, as a new site has.',
    async run(dryRun) {
      const root = await repo.byPath('/');
      if (!root || !lacksBlocks(root)) return ['The site root has blocks already: nothing to change.'];
      if (dryRun) return ['The site root has no blocks: a title block and a text block would be added.'];
      await writer.write(
        root,
        {
          kind: 'update',
          plan: (current) => {
            if (!lacksBlocks(current)) return null;
            const { blocks, blocks_layout } = siteRootBlocks(current.title);
            // JSON fields are stored as text (fieldsAfter).
            const fields = {
              ...current.fields,
              blocks: JSON.stringify(blocks),
              blocks_layout: JSON.stringify(blocks_layout),
            };
            return { set: { fields }, events: (next) => [modifiedEvent(next, ['blocks', 'blocks_layout'])] };
          },
        },
        SYSTEM_WRITE,
      );
      return ['The site root got a title block and a text block.'];
    },
  };
}
