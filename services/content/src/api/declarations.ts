import { declarations, type StoreStats } from '@cms/shared';
import type { CollectionResults } from '../clients/collection-results';
import type { TypeSource } from '../clients/config-types';
import type { AliasCommands } from '../domain/tree';
import type { ContentCommands } from '../domain/content';
import type { DataMigrations } from '../domain/site';
import type { FileBytes } from '../domain/files';
import type { HistoryCommands } from '../domain/history';
import type { LockCommands } from '../domain/locks';
import type { ContentDoc } from '../domain/content';
import type { References } from '../domain/relations';
import type { Relations } from '../domain/relations';
import type { ContentRepository } from '../domain/content';
import type { ContentSerializer } from '../domain/content';
import type { SiteSettingsSource } from '../domain/site';
import type { PrincipalDirectory, SharingCommands } from '../domain/sharing';
import type { TransactionCommands } from '../domain/history';
import type { Translations } from '../domain/translations';
import type { TreeCommands } from '../domain/tree';
import type { TusUploads } from '../domain/files';
import type { TypeRegistry } from '../domain/types';
import type { FieldSources, Vocabularies } from '../domain/vocabularies';
import type { WorkflowCommands } from '../domain/workflow';
import type { WorkingCopies } from '../domain/working-copies';
import type { Components } from './expansion';

/** What the content service's endpoints are given. Their context is the content object the path names. */
export interface ContentDeps {
  commands: ContentCommands;
  repo: ContentRepository;
  types: TypeRegistry;
  serializer: ContentSerializer;
  expansion: Components;
  tree: TreeCommands;
  workflow: WorkflowCommands;
  sharing: SharingCommands;
  files: FileBytes;
  locks: LockCommands;
  history: HistoryCommands;
  workingCopies: WorkingCopies;
  /** Users and groups as identity knows them (names of lock holders). */
  directory: PrincipalDirectory;
  /** Collections' results, from search. */
  collections: CollectionResults;
  /** `@vocabularies` and the sources of fields (`@sources`, `@querysources`). */
  vocabularies: Vocabularies;
  sources: FieldSources;
  /** The reference index and what reads it (`@linkintegrity`, `@relations`). */
  references: ReferenceReaders;
  /** `@aliases`: adding, removing and listing aliases. */
  aliases: AliasCommands;
  /** The content store's data migrations (`@upgrade`). */
  migrations: DataMigrations;
  /** Where the types come from (config), which also takes the schema edits of `@types`. */
  typeSource: TypeSource;
  /** Translation links and language roots (multilingual sites). */
  translations: Translations;
  /** The site's settings content applies (the registry's, read through config). */
  settings: SiteSettingsSource;
  /** The content store's statistics (`@database`); null when its engine reports none. */
  storeStats(): Promise<StoreStats | null>;
  /** The transaction log: listing and undoing (`@transactions`). */
  transactions: TransactionCommands;
  /** Resumable uploads (`@tus-upload`, `@tus-replace`). */
  tus: TusUploads;
}

/**
 * The declaring functions of content's endpoints, for the collaborators an endpoint uses:
 *   const { endpoint, operation } = using('repo', 'serializer');
 */
export const { using } = declarations<ContentDoc, ContentDeps>();

/** What the endpoints reading the reference index are given (`@linkintegrity`, `@relations`). */
export interface ReferenceReaders {
  references: References;
  relations: Relations;
  /** Waits (bounded) until the index has applied every content event published so far; false when it has not. */
  caughtUp(): Promise<boolean>;
  /** Whether link integrity checks are switched on (registry `cms.enable_link_integrity_checks`). */
  integrityChecksOn(requestId: string): Promise<boolean>;
}
